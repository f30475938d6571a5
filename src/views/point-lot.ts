import type { Customer, PointLot } from '../db/schema';
import type { CustomerPointsView, PointLotView } from '../schemas/point-lot';

export function toPointLotView(lot: PointLot): PointLotView {
  return {
    id: lot.id,
    internal_transaction_id: lot.internalTransactionId,
    amount: String(lot.amount),
    remaining: String(lot.remaining),
    status: lot.status,
    available_at: lot.availableAt,
    expires_at: lot.expiresAt,
    created_at: lot.createdAt,
  };
}

/** XP of the active lots that expire at one instant (data/point-lot-reads.ts). */
type ExpiringXp = { expiresAt: string; amount: number };

export function toCustomerPointsView(customer: Customer, pendingXp: number, expiring: ExpiringXp[]): CustomerPointsView {
  return {
    xp_balance: String(customer.xpBalance),
    pending_xp: String(pendingXp),
    lifetime_xp: String(customer.lifetimeXp),
    expiring: expiring.map((entry) => ({ expires_at: entry.expiresAt, amount: String(entry.amount) })),
  };
}
