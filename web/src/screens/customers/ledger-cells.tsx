/** How a ledger entry reads: its type in words, a reversal's credit, a pending credit's date. */
import { useQuery } from '@tanstack/react-query';
import type { Schemas } from '../../api/types';
import { useApi, useTenant } from '../../context/providers';
import { Badge, Button } from '../../components/ui';
import { dateTime, shortId } from '../../lib/format';
import { keys } from '../../lib/keys';

type Transaction = Schemas['InternalTransaction'];

/** Every type once: typed by the generated union, so a type the API adds fails this build until it is worded here. */
export const transactionTypeLabels: Record<Transaction['type'], string> = {
  xp_earn: 'Earned',
  xp_bonus: 'Bonus',
  xp_admin_adjust: 'Adjustment',
  xp_redeem: 'Redeemed',
  xp_expire: 'Expired',
  xp_reversal: 'Reversed (return)',
};

/** The credit an `xp_reversal` took back (`metadata.reversed_transaction_id`), when the entry names one. */
export function reversedCreditId(transaction: Transaction): string | null {
  const { metadata } = transaction;
  if (transaction.type !== 'xp_reversal' || typeof metadata !== 'object' || metadata === null || !('reversed_transaction_id' in metadata)) return null;
  return typeof metadata.reversed_transaction_id === 'string' ? metadata.reversed_transaction_id : null;
}

/** The type in words (the API's code on hover); a reversal links to its credit through `onOpen` (the details dialog). */
export function TransactionType({ transaction, onOpen }: { transaction: Transaction; onOpen: (id: string) => void }) {
  const credit = reversedCreditId(transaction);
  return (
    <span title={transaction.type}>
      {transactionTypeLabels[transaction.type]}
      {credit ? (
        <>
          {' of '}
          <Button variant="link" onClick={() => onOpen(credit)} aria-label={`Reversed credit ${credit}`}><code>{shortId(credit)}</code></Button>
        </>
      ) : null}
    </span>
  );
}

/** At most one page of the API's largest: a customer with more pending credits than this sees plain "Pending" on the older ones. */
const PENDING_LOTS = 100;

/**
 * When each of the customer's pending credits becomes spendable, by internal transaction id, from
 * their pending lots; asked only while `wanted` (a pending entry is on screen).
 */
export function usePendingUntil(customerId: string | null, wanted: boolean): ReadonlyMap<string, string> {
  const api = useApi();
  const { tenantId } = useTenant();
  const query = useQuery({
    queryKey: [...keys.customers(tenantId), 'one', customerId, 'point-lots', { status: 'pending', page: 1, limit: PENDING_LOTS }],
    queryFn: () => api.call(api.portal.listCustomerPointLots({ params: { path: { tenantId, userId: customerId ?? '' }, query: { status: 'pending', page: 1, limit: PENDING_LOTS } } })),
    enabled: wanted && customerId !== null,
  });
  return new Map((query.data?.items ?? []).flatMap((lot) => (lot.internal_transaction_id ? [[lot.internal_transaction_id, lot.available_at] as const] : [])));
}

/** "Pending until <date>" for a pending credit whose lot is known, else the status as the API names it. */
export function TransactionStatus({ transaction, pendingUntil }: { transaction: Transaction; pendingUntil: ReadonlyMap<string, string> }) {
  const until = transaction.status === 'pending' ? pendingUntil.get(transaction.id) : undefined;
  return <Badge value={transaction.status} label={until ? `Pending until ${dateTime(until)}` : undefined} />;
}
