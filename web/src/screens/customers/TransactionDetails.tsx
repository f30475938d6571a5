import { useQuery } from '@tanstack/react-query';
import { useApi, useTenant } from '../../context/providers';
import { Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Badge, Facts } from '../../components/ui';
import { dateTime, xp } from '../../lib/format';
import { keys } from '../../lib/keys';

/** One internal transaction as the API answers it, with every blockchain transaction linked to it. */
export function TransactionDetails({ transactionId, onClose }: { transactionId: string; onClose: () => void }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const query = useQuery({
    queryKey: [...keys.transactions(tenantId), 'one', transactionId],
    queryFn: () => api.call(api.portal.getInternalTransaction({ params: { path: { tenantId, internal_transaction_id: transactionId } } })),
  });
  return (
    <Dialog title="Transaction" onClose={onClose}>
      <QueryView query={query} what="Loading the transaction">
        {(transaction) => (
          <>
            <Facts items={[
              ['Type', transaction.type.replace(/_/g, ' ')], ['Amount', xp(transaction.amount)], ['Status', <Badge value={transaction.status} />],
              ['Notes', transaction.notes], ['Reward', transaction.reward?.title ?? null], ['Asset', transaction.onchain_asset?.name ?? null],
              ['Created', dateTime(transaction.created_at)], ['Id', <code>{transaction.id}</code>], ['Metadata', transaction.metadata === null ? null : <code>{JSON.stringify(transaction.metadata)}</code>],
            ]} />
            <h3>Blockchain transactions</h3>
            {(transaction.blockchain_transaction_links?.blockchain_transaction ?? []).length === 0 ? <p className="muted">None linked.</p> : null}
            {(transaction.blockchain_transaction_links?.blockchain_transaction ?? []).map((tx) => (
              <Facts key={tx.id} items={[
                ['Status', tx.txn_status ? <Badge value={tx.txn_status} /> : null], ['Hash', tx.tx_hash ? <code>{tx.tx_hash}</code> : null], ['Chain', tx.chain_id ?? null],
                ['From', tx.tx_from ? <code>{tx.tx_from}</code> : null], ['To', tx.tx_to ? <code>{tx.tx_to}</code> : null], ['Block', tx.receipt_block_number ?? null],
                ['Nonce', tx.tx_nonce ?? null], ['Gas used', tx.receipt_gas_used ?? null], ['Updated', dateTime(tx.updated_at)],
              ]} />
            ))}
          </>
        )}
      </QueryView>
    </Dialog>
  );
}
