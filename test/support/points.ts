import { env } from 'cloudflare:test';
import { and, eq, sql } from 'drizzle-orm';
import { pointLots, webhookEvents, type PointLot } from '../../src/db/schema';
import { pageSchema } from '../../src/lib/paging';
import { internalTransactionSchema, type InternalTransactionView } from '../../src/schemas/internal-transaction';
import { customerPointsSchema, pointLotSchema } from '../../src/schemas/point-lot';
import { programSettingsSchema } from '../../src/schemas/program-settings';
import { eachShard, runContext } from '../../src/services/context';
import { runLotJobs, type LotJobSummary } from '../../src/services/point-jobs';
import { expectOk, type JsonResponse } from './http';
import { createCustomer } from './ledger';
import { createTenant, createTestApiKey, db, gatewayCall, portalCall, type TestApiKey, type TestTenant } from './world';

/** The point lifecycle's test world (CONTRACT.md, Point lifecycle): credits, debits and lots through the HTTP surface, the minute jobs at a chosen instant. */

export const SECOND_MS = 1_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

export type PointsWorld = { tenant: TestTenant; key: TestApiKey; userId: string };

export async function pointsWorld(): Promise<PointsWorld> {
  const tenant = await createTenant();
  const key = await createTestApiKey(tenant.id);
  return { tenant, key, userId: await createCustomer(tenant.id) };
}

/** `POST /gateway/xp`: an earn of `amount` for the world's customer, or `userId`. */
export async function earn(w: PointsWorld, amount: number, userId = w.userId): Promise<InternalTransactionView> {
  const res = await gatewayCall(w.key, 'POST', '/api/v1/gateway/xp', { body: { user_id: userId, type: 'xp_earn', amount: String(amount) } });
  return expectOk(res, 201, internalTransactionSchema);
}

/** A portal XP adjustment of `amount` (signed), answered as is. */
export function adjust(w: PointsWorld, amount: number, userId = w.userId): Promise<JsonResponse> {
  return portalCall(w.tenant.owner, 'POST', `/api/v1/tenant/${w.tenant.id}/customers/${userId}/xp-adjustments`, { amount: String(amount), notes: 'correction' });
}

/** A negative adjustment of `amount` that succeeds. */
export async function debit(w: PointsWorld, amount: number, userId = w.userId): Promise<InternalTransactionView> {
  return expectOk(await adjust(w, -amount, userId), 201, internalTransactionSchema);
}

type PointsSettings = { pending_period?: string; validity?: string; expiry_rounding?: 'none' | 'end_of_day' | 'end_of_month' | 'end_of_year'; expiry_notice?: string };

/** `PUT /tenant/{t}/program-settings` with these points settings (no rounding unless told) and default tiers. */
export async function setPoints(w: PointsWorld, points: PointsSettings, timezone = 'UTC') {
  const body = {
    timezone,
    points: { pending_period: points.pending_period ?? null, validity: points.validity ?? null, expiry_rounding: points.expiry_rounding ?? 'none', expiry_notice: points.expiry_notice ?? null },
    tiers: { basis: 'lifetime', period: null, downgrade: 'none', review: 'yearly' },
  };
  return expectOk(await portalCall(w.tenant.owner, 'PUT', `/api/v1/tenant/${w.tenant.id}/program-settings`, body), 200, programSettingsSchema);
}

/** `GET /gateway/customers/{id}/points`. */
export async function pointsOf(w: PointsWorld, userId = w.userId) {
  return expectOk(await gatewayCall(w.key, 'GET', `/api/v1/gateway/customers/${userId}/points`), 200, customerPointsSchema);
}

/** The customer's lots (`GET /gateway/customers/{id}/point-lots`, one page of up to 100). */
export async function lotsOf(w: PointsWorld, userId = w.userId) {
  const res = await gatewayCall(w.key, 'GET', `/api/v1/gateway/customers/${userId}/point-lots?limit=100`);
  return expectOk(res, 200, pageSchema(pointLotSchema)).items;
}

/** The lot of a credit as stored (with what the API does not show: `reversed`, `notice_sent_at`, `expired_by`). */
export async function lotRow(tenantId: string, transactionId: string): Promise<PointLot> {
  const rows = await db(tenantId).select().from(pointLots).where(and(eq(pointLots.tenantId, tenantId), eq(pointLots.internalTransactionId, transactionId)));
  if (rows.length !== 1) throw new Error(`expected one lot for ${transactionId}, found ${rows.length}`);
  return rows[0]!;
}

/** `GET /gateway/internal-transactions/{id}`. */
export async function transactionOf(w: PointsWorld, id: string): Promise<InternalTransactionView> {
  return expectOk(await gatewayCall(w.key, 'GET', `/api/v1/gateway/internal-transactions/${id}`), 200, internalTransactionSchema);
}

/** The customer's internal transactions of one type, newest first (`GET /gateway/internal-transactions`). */
export async function transactionsOfType(w: PointsWorld, type: string, userId = w.userId): Promise<InternalTransactionView[]> {
  const res = await gatewayCall(w.key, 'GET', `/api/v1/gateway/internal-transactions?user_id=${userId}&type=${type}&limit=100`);
  return expectOk(res, 200, pageSchema(internalTransactionSchema)).items;
}

/**
 * The minute cron's lot jobs as if they ran at `at`: on every shard, as the cron runs them
 * (`eachShard`), their summaries added up (every tenant of the file: assert on your own rows, not the summary).
 */
export async function runLotJobsAt(at: number | Date): Promise<LotJobSummary> {
  const instant = new Date(at);
  const summaries = await eachShard(runContext(env, { now: () => instant }), runLotJobs);
  return summaries.reduce((total, summary) => ({
    activated: total.activated + summary.activated,
    noticed: total.noticed + summary.noticed,
    expired: total.expired + summary.expired,
    reviewed: total.reviewed + summary.reviewed,
    more: total.more || summary.more,
  }));
}

/** The resource ids of the tenant's recorded webhook events of one type (a string: the lifecycle's types may be newer than the enum). */
export async function recordedEvents(tenantId: string, type: string): Promise<string[]> {
  const rows = await db(tenantId).select({ resourceId: webhookEvents.resourceId }).from(webhookEvents).where(and(eq(webhookEvents.tenantId, tenantId), sql`${webhookEvents.type} = ${type}`));
  return rows.map((row) => row.resourceId);
}
