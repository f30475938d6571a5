import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useApi, useTenant } from '../../context/providers';
import { Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Badge, Button, Facts } from '../../components/ui';
import { dateTime, xp } from '../../lib/format';
import { keys } from '../../lib/keys';
import { reversedCreditId, TransactionStatus, transactionTypeLabels, usePendingUntil } from './ledger-cells';

/** One internal transaction as the API answers it, with every blockchain transaction linked to it; a reversal opens its credit in place. */
export function TransactionDetails({ transactionId, onClose }: { transactionId: string; onClose: () => void }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const [shown, setShown] = useState(transactionId);
  const query = useQuery({
    queryKey: [...keys.transactions(tenantId), 'one', shown],
    queryFn: () => api.call(api.portal.getInternalTransaction({ params: { path: { tenantId, internal_transaction_id: shown } } })),
  });
  const pendingUntil = usePendingUntil(query.data?.user_id ?? null, query.data?.status === 'pending');
  const credit = query.data ? reversedCreditId(query.data) : null;
  return (
    <Dialog title="Transaction" onClose={onClose}>
      <QueryView query={query} what="Loading the transaction">
        {(transaction) => (
          <>
            <Facts items={[
              ['Type', transactionTypeLabels[transaction.type]], ['Amount', xp(transaction.amount)], ['Status', <TransactionStatus transaction={transaction} pendingUntil={pendingUntil} />],
              ...(credit ? [['Reverses', <Button variant="link" onClick={() => setShown(credit)} aria-label={`Open the reversed credit ${credit}`}><code>{credit}</code></Button>] satisfies [string, ReactNode]] : []),
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
