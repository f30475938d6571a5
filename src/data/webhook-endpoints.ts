import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { webhookDeliveries, webhookEndpoints, type WebhookEndpoint } from '../db/schema';
import { MAX_ENDPOINTS_PER_TENANT } from '../domain/webhooks';
import { ExpiringMap } from '../lib/bounded-map';
import { offsetOf, type PageParams } from '../lib/paging';

type NewEndpoint = Pick<WebhookEndpoint, 'id' | 'tenantId' | 'url' | 'description' | 'eventTypes' | 'secretCiphertext'>;

const timestamp = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

const byId = (tenantId: string, id: string) => and(eq(webhookEndpoints.tenantId, tenantId), eq(webhookEndpoints.id, id));

/**
 * Inserts the endpoint unless the tenant already has the most it may have; in one statement, so
 * requests at once cannot pass the bound together. Answers the row, or undefined when refused.
 */
export async function insertEndpointWithinBound(db: Database, row: NewEndpoint): Promise<WebhookEndpoint | undefined> {
  const [, [inserted]] = await db.batch([
    // Every column in table order (drizzle's INSERT ... SELECT names them all).
    db.insert(webhookEndpoints).select(
      sql`select ${row.id}, ${row.tenantId}, ${row.url}, ${row.description}, ${JSON.stringify(row.eventTypes)}, 'enabled', ${row.secretCiphertext},
        null, null, null, null, ${timestamp}, ${timestamp}
        where (select count(*) from ${webhookEndpoints} where tenant_id = ${row.tenantId}) < ${MAX_ENDPOINTS_PER_TENANT}`,
    ),
    db.select().from(webhookEndpoints).where(byId(row.tenantId, row.id)),
  ]);
  return inserted;
}

export async function findEndpoint(db: Database, tenantId: string, id: string): Promise<WebhookEndpoint | undefined> {
  const [endpoint] = await db.select().from(webhookEndpoints).where(byId(tenantId, id));
  return endpoint;
}

/** Newest first; a tenant has at most MAX_ENDPOINTS_PER_TENANT, so the count is cheap. */
export async function findEndpointPage(db: Database, tenantId: string, params: PageParams) {
  const [rows, [total]] = await db.batch([
    db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.tenantId, tenantId))
      .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id))
      .limit(params.limit)
      .offset(offsetOf(params)),
    db.select({ value: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.tenantId, tenantId)),
  ]);
  return { rows, total: total?.value ?? 0 };
}

/** Applies `changes`; with `unlessSecretChanged`, only while the endpoint still has that secret. */
export async function updateEndpoint(
  db: Database,
  tenantId: string,
  id: string,
  changes: Partial<typeof webhookEndpoints.$inferInsert>,
  unlessSecretChanged?: string,
) {
  const sameSecret = unlessSecretChanged === undefined ? undefined : eq(webhookEndpoints.secretCiphertext, unlessSecretChanged);
  const [updated] = await db
    .update(webhookEndpoints)
    .set({ ...changes, updatedAt: timestamp })
    .where(and(byId(tenantId, id), sameSecret))
    .returning();
  return updated;
}

/** The endpoint and its delivery log, in one transaction; its events stay for other endpoints. */
export async function deleteEndpoint(db: Database, tenantId: string, id: string): Promise<boolean> {
  const [deleted] = await db.batch([
    db.delete(webhookEndpoints).where(byId(tenantId, id)).returning({ id: webhookEndpoints.id }),
    db.delete(webhookDeliveries).where(and(eq(webhookDeliveries.tenantId, tenantId), eq(webhookDeliveries.endpointId, id))),
  ]);
  return deleted.length > 0;
}

/**
 * Whether a tenant had an enabled endpoint when this isolate last looked, so a write of a tenant
 * without webhooks skips the after-write hand-over entirely. At most a minute stale: an endpoint
 * created in another isolate is then served by the minute cron, which never relies on this.
 */
const endpointPresence = new ExpiringMap<string, boolean>(10_000, 60_000);

export async function tenantHasEnabledEndpoint(db: Database, tenantId: string): Promise<boolean> {
  const known = endpointPresence.get(tenantId);
  if (known !== undefined) return known;
  const [row] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.tenantId, tenantId), eq(webhookEndpoints.status, 'enabled')))
    .limit(1);
  endpointPresence.set(tenantId, row !== undefined);
  return row !== undefined;
}

/** After an endpoint write in this isolate: look again next time. */
export function forgetEndpointPresence(tenantId: string): void {
  endpointPresence.delete(tenantId);
}
