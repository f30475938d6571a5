/**
 * The dashboard's numbers, from the portal API's own lists (it has no aggregate route for them):
 * status counts are exact (`total_count` of a filtered page of one); the tier split and the XP
 * series read at most a bounded number of pages, newest first, and say when they stopped early.
 */
import type { Api } from '../../api/client';
import { customerStatuses, type Schemas } from '../../api/types';

const PAGE = 100;
export const MAX_PAGES = 10;
export const XP_DAYS = 30;

export async function statusCounts(api: Api, tenantId: string): Promise<{ status: string; count: number }[]> {
  return Promise.all(
    customerStatuses.map(async (status) => {
      const result = await api.call(api.portal.listCustomers({ params: { path: { tenantId }, query: { status, limit: 1 } } }));
      return { status, count: result.total_count };
    }),
  );
}

export async function tierSplit(api: Api, tenantId: string): Promise<{ rows: { tier: string; count: number }[]; counted: number; total: number }> {
  const counts = new Map<string, number>();
  let counted = 0;
  let total = 0;
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const result = await api.call(api.portal.listCustomers({ params: { path: { tenantId }, query: { page, limit: PAGE } } }));
    total = result.total_count;
    for (const customer of result.items) {
      const tier = customer.tier?.tier_name ?? 'No tier';
      counts.set(tier, (counts.get(tier) ?? 0) + 1);
    }
    counted += result.items.length;
    if (!result.has_next_page) break;
  }
  return { rows: [...counts].map(([tier, count]) => ({ tier, count })).sort((a, b) => b.count - a.count), counted, total };
}

type Transaction = Schemas['InternalTransaction'];
export type XpDay = { day: string; issued: number; redeemed: number };

/** Issued = completed earn, bonus and positive adjustments; redeemed = completed redemptions (as positive numbers). */
export function bucketXp(transactions: Transaction[], today: Date, days = XP_DAYS): XpDay[] {
  const series: XpDay[] = [];
  const index = new Map<string, XpDay>();
  for (let offset = days - 1; offset >= 0; offset -= 1) {
    const day = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - offset)).toISOString().slice(0, 10);
    const entry = { day, issued: 0, redeemed: 0 };
    series.push(entry);
    index.set(day, entry);
  }
  for (const transaction of transactions) {
    const entry = index.get((transaction.created_at ?? '').slice(0, 10));
    const amount = Number(transaction.amount ?? 0);
    if (!entry || transaction.status !== 'completed' || !Number.isFinite(amount)) continue;
    if (transaction.type === 'xp_redeem') entry.redeemed += -amount;
    else if (amount > 0) entry.issued += amount;
  }
  return series;
}

export async function xpSeries(api: Api, tenantId: string, today = new Date()): Promise<{ days: XpDay[]; complete: boolean }> {
  const since = new Date(today.getTime() - XP_DAYS * 86_400_000).toISOString();
  const transactions: Transaction[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const result = await api.call(api.portal.listInternalTransactions({ params: { path: { tenantId }, query: { page, limit: PAGE, status: 'completed' } } }));
    transactions.push(...result.items);
    const oldest = result.items.at(-1)?.created_at ?? '';
    if (!result.has_next_page || oldest < since) return { days: bucketXp(transactions, today), complete: true };
  }
  return { days: bucketXp(transactions, today), complete: false };
}
