import { describe, expect, it } from 'vitest';
import type { z } from '@hono/zod-openapi';
import { pageSchema } from '../../src/lib/paging';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { customerPointsSchema, pointLotSchema, type PointLotView } from '../../src/schemas/point-lot';
import { programSettingsSchema } from '../../src/schemas/program-settings';
import { expectError, expectOk, type JsonResponse } from '../support/http';
import { createCustomer } from '../support/ledger';
import { createTenant, createTestApiKey, gatewayCall, portalCall, type TestApiKey, type TestTenant } from '../support/world';

/** The read surfaces of point lots (CONTRACT.md, Point lifecycle): a customer's points and their lots, on both surfaces. */

const lotPage = pageSchema(pointLotSchema);
const DAY_MS = 86_400_000;

type World = { tenant: TestTenant; key: TestApiKey; userId: string };

async function world(): Promise<World> {
  const tenant = await createTenant();
  const key = await createTestApiKey(tenant.id);
  return { tenant, key, userId: await createCustomer(tenant.id) };
}

const surfaces: { name: string; get: (w: World, path: string) => Promise<JsonResponse> }[] = [
  { name: 'gateway', get: (w, path) => gatewayCall(w.key, 'GET', `/api/v1/gateway/customers/${path}`) },
  { name: 'portal', get: (w, path) => portalCall(w.tenant.owner, 'GET', `/api/v1/tenant/${w.tenant.id}/customers/${path}`) },
];

/** Reads `path` on both surfaces, checks each against the schema and that they agree. */
async function read<T extends z.ZodType>(w: World, path: string, schema: T): Promise<z.infer<T>> {
  const [gateway, portal] = await Promise.all(surfaces.map((surface) => surface.get(w, path)));
  const data = expectOk(gateway!, 200, schema);
  expect(expectOk(portal!, 200, schema)).toEqual(data);
  return data;
}

const points = (w: World) => read(w, `${w.userId}/points`, customerPointsSchema);
const lots = async (w: World, query = '') => (await read(w, `${w.userId}/point-lots${query}`, lotPage)).items;

async function earn(w: World, amount: number) {
  const res = await gatewayCall(w.key, 'POST', '/api/v1/gateway/xp', { body: { user_id: w.userId, type: 'xp_earn', amount: String(amount) } });
  return expectOk(res, 201, internalTransactionSchema);
}

async function debit(w: World, amount: number) {
  const res = await portalCall(w.tenant.owner, 'POST', `/api/v1/tenant/${w.tenant.id}/customers/${w.userId}/xp-adjustments`, { amount: String(-amount), notes: 'correction' });
  expectOk(res, 201, internalTransactionSchema);
}

async function setPoints(w: World, points: { pending_period?: string; validity?: string }) {
  const body = {
    timezone: 'UTC',
    points: { pending_period: points.pending_period ?? null, validity: points.validity ?? null, expiry_rounding: 'end_of_day', expiry_notice: null },
    tiers: { basis: 'lifetime', period: null, downgrade: 'none', review: 'yearly' },
  };
  expectOk(await portalCall(w.tenant.owner, 'PUT', `/api/v1/tenant/${w.tenant.id}/program-settings`, body), 200, programSettingsSchema);
}

const lotOf = (items: PointLotView[], transactionId: string) => items.find((lot) => lot.internal_transaction_id === transactionId);

/** The next-expiring list as the contract defines it, from the lots themselves. */
function expiringOf(items: PointLotView[]) {
  const sums = new Map<string, number>();
  for (const lot of items) if (lot.status === 'active' && lot.expires_at) sums.set(lot.expires_at, (sums.get(lot.expires_at) ?? 0) + Number(lot.remaining));
  return [...sums].sort(([a], [b]) => a.localeCompare(b)).slice(0, 5).map(([expires_at, amount]) => ({ expires_at, amount: String(amount) }));
}

/** The first instant of the UTC day after `instant` (an instant already at midnight stays). */
function endOfUtcDay(instant: number) {
  const day = new Date(instant);
  const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  return new Date(midnight === instant ? instant : midnight + DAY_MS).toISOString();
}

describe('GET customers/{userId}/points and /point-lots (gateway and portal)', () => {
  it('shows a new customer with no lots: zero everywhere, an empty page', async () => {
    const w = await world();
    expect(await points(w)).toEqual({ xp_balance: '0', pending_xp: '0', lifetime_xp: '0', expiring: [] });
    expect(await read(w, `${w.userId}/point-lots`, lotPage)).toEqual({ items: [], total_count: 0, page: 1, limit: 20, total_pages: 0, has_next_page: false });
  });

  it('a debit takes the earliest expiry first (lots without expiry last): that lot is spent, the other keeps the rest', async () => {
    const w = await world();
    const forever = await earn(w, 100);
    await setPoints(w, { validity: 'P30D' });
    const expiring = await earn(w, 50);
    await debit(w, 70);
    const items = await lots(w);
    expect(items).toHaveLength(2);
    expect(lotOf(items, expiring.id)).toMatchObject({ amount: '50', remaining: '0', status: 'spent', expires_at: expect.stringMatching(/T00:00:00\.000Z$/) });
    expect(lotOf(items, forever.id)).toMatchObject({ amount: '100', remaining: '80', status: 'active', expires_at: null });
    expect(await points(w)).toEqual({ xp_balance: '80', pending_xp: '0', lifetime_xp: '150', expiring: [] });
    expect((await lots(w, '?status=spent')).map((lot) => lot.internal_transaction_id)).toEqual([expiring.id]);
    expect((await lots(w, '?status=active')).map((lot) => lot.internal_transaction_id)).toEqual([forever.id]);
    expect(await lots(w, '?status=pending')).toEqual([]);
  });

  it('a credit in its pending period is pending XP, not balance, with its expiry at the end of a UTC day', async () => {
    const w = await world();
    await earn(w, 100);
    await setPoints(w, { pending_period: 'P1D', validity: 'P30D' });
    const before = Date.now();
    const credit = await earn(w, 40);
    const after = Date.now();
    expect(credit.status).toBe('pending');
    expect(await points(w)).toEqual({ xp_balance: '100', pending_xp: '40', lifetime_xp: expect.any(String), expiring: [] });
    const [lot] = await lots(w, '?status=pending');
    expect(lot).toMatchObject({ internal_transaction_id: credit.id, amount: '40', remaining: '40', status: 'pending' });
    const availableAt = Date.parse(lot!.available_at);
    expect(availableAt).toBeGreaterThanOrEqual(before + DAY_MS - 1);
    expect(availableAt).toBeLessThanOrEqual(after + DAY_MS);
    expect(lot!.expires_at).toBe(endOfUtcDay(availableAt + 30 * DAY_MS));
    // The pending lot is never debited: all of the active 100 goes, the 40 stays.
    await debit(w, 100);
    expect(await points(w)).toMatchObject({ xp_balance: '0', pending_xp: '40' });
    expect(lotOf(await lots(w), credit.id)).toMatchObject({ remaining: '40', status: 'pending' });
  });

  it('expiring: the next 5 expiry dates of active lots, earliest first, summed per date; no pending or non-expiring lot', async () => {
    const w = await world();
    await earn(w, 1000);
    for (const days of [1, 1, 2, 3, 4, 5, 6]) {
      await setPoints(w, { validity: `P${days}D` });
      await earn(w, 10 * days);
    }
    // Pending until tomorrow, expiring the day after: the date of the P2D lot, which it must not add to.
    await setPoints(w, { pending_period: 'P1D', validity: 'P1D' });
    await earn(w, 7);
    await debit(w, 5);
    const items = await lots(w);
    const dates = new Set(items.filter((lot) => lot.status === 'active' && lot.expires_at).map((lot) => lot.expires_at));
    expect(dates.size).toBe(6);
    const summary = await points(w);
    expect(summary.expiring).toHaveLength(5);
    expect(summary.expiring).toEqual(expiringOf(items));
    // The two P1D lots (10 + 10) less the debit, which took from the earliest expiry first.
    expect(summary.expiring[0]?.amount).toBe('15');
    expect(summary.expiring.map((entry) => entry.expires_at)).toEqual([...summary.expiring.map((entry) => entry.expires_at)].sort());
    expect(summary).toMatchObject({ xp_balance: String(1000 + 10 + 10 + 20 + 30 + 40 + 50 + 60 - 5), pending_xp: '7' });
    const activeRemaining = items.filter((lot) => lot.status === 'active').reduce((sum, lot) => sum + Number(lot.remaining), 0);
    expect(summary.xp_balance).toBe(String(activeRemaining));
  });

  it('pages newest first (created_at, then id, descending)', async () => {
    const w = await world();
    for (const amount of [1, 2, 3]) await earn(w, amount);
    const first = await read(w, `${w.userId}/point-lots?limit=2`, lotPage);
    expect(first).toMatchObject({ total_count: 3, page: 1, limit: 2, total_pages: 2, has_next_page: true });
    const second = await read(w, `${w.userId}/point-lots?limit=2&page=2`, lotPage);
    expect(second).toMatchObject({ total_count: 3, page: 2, has_next_page: false });
    const all = [...first.items, ...second.items];
    expect(new Set(all.map((lot) => lot.amount))).toEqual(new Set(['1', '2', '3']));
    const newestFirst = [...all].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
    expect(all).toEqual(newestFirst);
    expect(await read(w, `${w.userId}/point-lots?status=active&limit=1&page=3`, lotPage)).toMatchObject({ items: [newestFirst[2]], total_count: 3 });
  });

  it.each(surfaces)('$name: 422 naming `status` for a status outside the enum, and for bad paging', async ({ get }) => {
    const w = await world();
    const body = expectError(await get(w, `${w.userId}/point-lots?status=used`), 422, 'VALIDATION_FAILED');
    expect(body.errors.map((error) => error.path)).toEqual(['status']);
    for (const query of ['limit=0', 'limit=101', 'page=0']) expectError(await get(w, `${w.userId}/point-lots?${query}`), 422, 'VALIDATION_FAILED');
  });

  it.each(surfaces)("$name: 404 for an unknown customer and for another tenant's customer, on both routes", async ({ get }) => {
    const mine = await world();
    const theirs = await world();
    await earn(theirs, 25);
    for (const route of ['points', 'point-lots']) {
      expectError(await get(mine, `cus_missing/${route}`), 404, 'NOT_FOUND', 'Customer not found');
      expectError(await get(mine, `${theirs.userId}/${route}`), 404, 'NOT_FOUND', 'Customer not found');
    }
  });
});
