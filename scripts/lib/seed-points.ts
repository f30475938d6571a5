/**
 * The point lifecycle in the demo (docs/POINTS.md), run by scripts/seed.ts after every other step,
 * the onchain part included: until then the program's points settings are the defaults
 * (scripts/lib/seed-program.ts), so the XP the seed credits is spendable at once and the XP token
 * reconciles as before. Then the settings switch the lifecycle on and one bonus is credited under
 * them, pending for the pending period until the minute cron makes it spendable. Idempotent: the
 * settings are a whole document, and the bonus is looked for by its notes before it is credited.
 */
import { apiCall, dataOf, type GatewayKey } from './api-client';
import { CUSTOMERS, PENDING_CREDIT, POINT_SETTINGS, PROGRAM_TIMEZONE, TIER_SETTINGS } from './demo-data';
import type { DemoState, PendingCredit, PointSettings } from './dev-files';
import { onceKey, type Page, type Report } from './seed-report';

type Transaction = { id: string; type: string; amount: string | null; notes: string | null; status: string };
type Lot = { internal_transaction_id: string | null; status: string; available_at: string; expires_at: string | null };
type Points = { xp_balance: string; pending_xp: string; lifetime_xp: string };

export type PointsSeedInput = {
  token: string;
  tenantId: string;
  gatewayKey?: GatewayKey;
  /** external_id -> customer id, for the customers the seed created or found. */
  customerIds: ReadonlyMap<string, string>;
  report: Report;
};

/** "pending PT2M, valid P90D to the end_of_day, notice P7D": the settings in one line. */
export function describePointSettings(settings: PointSettings): string {
  return [
    `pending ${settings.pending_period ?? 'none'}`,
    `valid ${settings.validity ?? 'forever'}${settings.expiry_rounding === 'none' ? '' : ` to the ${settings.expiry_rounding}`}`,
    `notice ${settings.expiry_notice ?? 'none'}`,
  ].join(', ');
}

/** The demo bonus: found among the customer's bonuses by its notes, else credited once. */
async function ensureCredit(gatewayKey: GatewayKey, userId: string, report: Report): Promise<{ tx: Transaction; created: boolean } | undefined> {
  const { entry } = PENDING_CREDIT;
  const bonuses = await apiCall('GET', `/gateway/internal-transactions?user_id=${userId}&type=${entry.type}&limit=100`, { gatewayKey });
  const existing = dataOf<Page<Transaction>>(bonuses)?.items.find((tx) => tx.notes === entry.notes);
  if (existing) return { tx: existing, created: false };
  const body = { user_id: userId, ...entry };
  const res = await apiCall('POST', '/gateway/xp', { gatewayKey, body, idempotencyKey: onceKey(`xp-pending:${PENDING_CREDIT.external_id}`, body) });
  const created = dataOf<Transaction>(res);
  if (created) return { tx: created, created: true };
  report.fail(`${entry.type} ${entry.amount} XP "${entry.notes}"`, res, 'POST xp');
  return undefined;
}

/**
 * @example state.points = await seedPoints({ token, tenantId, gatewayKey, customerIds, report });
 */
export async function seedPoints(input: PointsSeedInput): Promise<DemoState['points']> {
  const { token, tenantId, gatewayKey, customerIds, report } = input;
  const body = { timezone: PROGRAM_TIMEZONE, points: POINT_SETTINGS, tiers: TIER_SETTINGS };
  const res = await apiCall('PUT', `/tenant/${tenantId}/program-settings`, { token, body });
  const saved = dataOf<{ timezone: string; points: PointSettings }>(res);
  if (!saved) {
    report.fail('point lifecycle settings', res);
    return undefined;
  }
  report.ok('point lifecycle on', `${describePointSettings(saved.points)}, in ${saved.timezone}`);
  const points = { timezone: saved.timezone, settings: saved.points };

  const { external_id, entry } = PENDING_CREDIT;
  const userId = customerIds.get(external_id);
  if (!gatewayKey || !userId) {
    report.skip(`${entry.amount} XP "${entry.notes}"`, gatewayKey ? `customer ${external_id} missing` : 'no API key');
    return points;
  }
  const found = await ensureCredit(gatewayKey, userId, report);
  if (!found) return points;
  const { tx } = found;
  const lots = dataOf<Page<Lot>>(await apiCall('GET', `/gateway/customers/${userId}/point-lots?limit=100`, { gatewayKey }));
  const lot = lots?.items.find((item) => item.internal_transaction_id === tx.id);
  const now = dataOf<Points>(await apiCall('GET', `/gateway/customers/${userId}/points`, { gatewayKey }));
  const username = CUSTOMERS.find((c) => c.external_id === external_id)?.username ?? external_id;
  const credit: PendingCredit = { customerId: userId, username, transactionId: tx.id, amount: entry.amount, notes: entry.notes, availableAt: lot?.available_at, lotStatus: lot?.status };
  report.ok(
    `${username} ${found.created ? 'credited' : 'already credited'} ${entry.amount} XP "${entry.notes}"`,
    [
      `${tx.id} ${tx.status}`,
      lot ? `lot ${lot.status}, spendable from ${lot.available_at}, expires ${lot.expires_at ?? 'never'}` : 'lot not found',
      now ? `points: xp_balance ${now.xp_balance}, pending_xp ${now.pending_xp}` : 'points unread',
    ].join('; '),
  );
  return { ...points, credit };
}
