import { and, count, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { webhookDeliveries, webhookEndpoints, webhookEvents, type WebhookDeliveryStatus } from '../db/schema';
import { offsetOf, type PageParams } from '../lib/paging';

const now = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/**
 * Marks up to `limit` due deliveries as handed to the queue and answers their ids: pending, due by
 * `nowIso`, and not handed over since `requeueBeforeIso` (a message lost on the way is sent again).
 * One statement, so two sweeps at once never hand over the same delivery twice.
 */
export async function claimDueDeliveries(db: Database, options: { nowIso: string; requeueBeforeIso: string; limit: number; tenantId?: string }) {
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        options.tenantId === undefined ? undefined : eq(webhookDeliveries.tenantId, options.tenantId),
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.nextAttemptAt, options.nowIso),
        or(isNull(webhookDeliveries.enqueuedAt), lte(webhookDeliveries.enqueuedAt, options.requeueBeforeIso)),
      ),
    )
    .orderBy(webhookDeliveries.nextAttemptAt)
    .limit(options.limit);
  const rows = await db
    .update(webhookDeliveries)
    .set({ enqueuedAt: options.nowIso })
    .where(inArray(webhookDeliveries.id, due))
    .returning({ id: webhookDeliveries.id });
  return rows.map((row) => row.id);
}

/**
 * Takes a due delivery for one attempt: its next attempt moves to `leaseUntilIso`, so a duplicate
 * message meanwhile finds it not due. Answers the delivery with its endpoint and event, or
 * undefined when it is not pending or not due (already attempted, delivered, or given up).
 */
export async function leaseDelivery(db: Database, id: string, nowIso: string, leaseUntilIso: string) {
  const [[delivery], [endpoint], [event]] = await db.batch([
    db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: leaseUntilIso, enqueuedAt: null })
      .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, nowIso)))
      .returning(),
    db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, db.select({ id: webhookDeliveries.endpointId }).from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))),
    db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.id, db.select({ id: webhookDeliveries.eventId }).from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))),
  ]);
  if (!delivery || !endpoint || !event) return undefined;
  return { delivery, endpoint, event };
}

/** The event's body as first rendered: a later renderer's body never replaces it. */
export async function freezePayload(db: Database, eventId: string, payload: string): Promise<string> {
  const [row] = await db
    .update(webhookEvents)
    .set({ payload: sql`coalesce(${webhookEvents.payload}, ${payload})` })
    .where(eq(webhookEvents.id, eventId))
    .returning({ payload: webhookEvents.payload });
  return row?.payload ?? payload;
}

export type AttemptRecord = { deliveryId: string; endpointId: string; statusCode: number | null; error: string | null };

export async function recordDelivered(db: Database, attempt: AttemptRecord): Promise<void> {
  await db.batch([
    db
      .update(webhookDeliveries)
      .set({ status: 'delivered', attempts: sql`${webhookDeliveries.attempts} + 1`, lastStatusCode: attempt.statusCode, lastError: null, nextAttemptAt: null, deliveredAt: now, updatedAt: now })
      .where(eq(webhookDeliveries.id, attempt.deliveryId)),
    db.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, attempt.endpointId)),
  ]);
}

/**
 * A failed attempt at `failedAt` (ISO): the next one at `nextAttemptAt`, or the delivery `failed`
 * when null. The endpoint starts failing at `failedAt` unless it already was: the caller's clock,
 * not SQLite's, since the caller compares `failing_since` with its own clock to disable the
 * endpoint. `disableReason` disables the endpoint and gives up its other pending deliveries (a
 * replay sends them once it is enabled again).
 */
export async function recordFailed(db: Database, attempt: AttemptRecord & { failedAt: string; nextAttemptAt: string | null; disableReason?: string }): Promise<void> {
  const deliveryChange = {
    attempts: sql`${webhookDeliveries.attempts} + 1`,
    lastStatusCode: attempt.statusCode,
    lastError: attempt.error,
    status: attempt.nextAttemptAt === null ? ('failed' as const) : ('pending' as const),
    nextAttemptAt: attempt.nextAttemptAt,
    updatedAt: now,
  };
  const statements = [
    db.update(webhookDeliveries).set(deliveryChange).where(eq(webhookDeliveries.id, attempt.deliveryId)),
    db
      .update(webhookEndpoints)
      .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${attempt.failedAt})` })
      .where(eq(webhookEndpoints.id, attempt.endpointId)),
  ] as const;
  if (attempt.disableReason === undefined) {
    await db.batch(statements);
    return;
  }
  await db.batch([
    ...statements,
    db.update(webhookEndpoints).set({ status: 'disabled', disabledReason: attempt.disableReason, updatedAt: now }).where(eq(webhookEndpoints.id, attempt.endpointId)),
    db
      .update(webhookDeliveries)
      .set({ status: 'failed', nextAttemptAt: null, lastError: sql`coalesce(${webhookDeliveries.lastError}, 'Endpoint disabled')`, updatedAt: now })
      .where(and(eq(webhookDeliveries.endpointId, attempt.endpointId), eq(webhookDeliveries.status, 'pending'))),
  ]);
}

const ofEndpoint = (tenantId: string, endpointId: string) => and(eq(webhookDeliveries.tenantId, tenantId), eq(webhookDeliveries.endpointId, endpointId));

/** Newest first, optionally by status. */
export async function findDeliveryPage(db: Database, tenantId: string, endpointId: string, params: PageParams & { status?: WebhookDeliveryStatus }) {
  const where = and(ofEndpoint(tenantId, endpointId), params.status === undefined ? undefined : eq(webhookDeliveries.status, params.status));
  const [rows, [total]] = await db.batch([
    db.select().from(webhookDeliveries).where(where).orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id)).limit(params.limit).offset(offsetOf(params)),
    db.select({ value: count() }).from(webhookDeliveries).where(where),
  ]);
  return { rows, total: total?.value ?? 0 };
}

/** The delivery due again at once (a replay), whatever its status; undefined when not the endpoint's. */
export async function resetForReplay(db: Database, tenantId: string, endpointId: string, id: string, nowIso: string) {
  const [delivery] = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: nowIso, enqueuedAt: null, deliveredAt: null, updatedAt: now })
    .where(and(ofEndpoint(tenantId, endpointId), eq(webhookDeliveries.id, id)))
    .returning();
  return delivery;
}
