import { and, count, desc, eq, exists, ne, not, notExists, sql, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { webhookDeliveries, webhookEndpoints, type WebhookEndpoint } from '../db/schema';
import { MAX_ENDPOINTS_PER_TENANT } from '../domain/webhooks';
import { ExpiringMap } from '../lib/bounded-map';
import { offsetOf, type PageParams } from '../lib/paging';
import { ONE_ROW, selectedRow } from './insert-select';
import { namedBatch } from './named-batch';

type NewEndpoint = Pick<WebhookEndpoint, 'id' | 'tenantId' | 'url' | 'description' | 'eventTypes' | 'secretCiphertext'>;

const timestamp = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

const byId = (tenantId: string, id: string) => and(eq(webhookEndpoints.tenantId, tenantId), eq(webhookEndpoints.id, id));

/** Another enabled endpoint of the tenant whose URL is `url` (a value, or a column of the row being written). */
function enabledEndpointWithUrl(db: Database, tenantId: string, url: string | SQLWrapper, exceptId: string) {
  const others = alias(webhookEndpoints, 'others');
  return db
    .select({ id: others.id })
    .from(others)
    .where(and(eq(others.tenantId, tenantId), eq(others.status, 'enabled'), eq(others.url, url), ne(others.id, exceptId)));
}

export type EndpointInsert = { endpoint: WebhookEndpoint } | { refused: 'url_taken' | 'too_many' };

/**
 * Inserts the (enabled) endpoint unless the tenant already has the most it may have or an enabled
 * endpoint with the same URL; both in the INSERT itself, so requests at once cannot pass either
 * check together. The batch then tells which one refused it.
 */
export async function insertEndpointWithinBound(db: Database, row: NewEndpoint): Promise<EndpointInsert> {
  const values = selectedRow(webhookEndpoints, {
    ...row,
    eventTypes: JSON.stringify(row.eventTypes),
    status: 'enabled',
    previousSecretCiphertext: null,
    previousSecretExpiresAt: null,
    failingSince: null,
    disabledReason: null,
    createdAt: timestamp,
    updatedAt: timestamp,
  });
  const withinBounds = sql`(select count(*) from ${webhookEndpoints} where tenant_id = ${row.tenantId}) < ${MAX_ENDPOINTS_PER_TENANT}
    and ${notExists(enabledEndpointWithUrl(db, row.tenantId, row.url, row.id))}`;
  const { insertedRows, sameUrlRows } = await namedBatch(db, {
    insert: db.insert(webhookEndpoints).select(db.select(values).from(ONE_ROW).where(withinBounds)),
    insertedRows: db.select().from(webhookEndpoints).where(byId(row.tenantId, row.id)),
    sameUrlRows: enabledEndpointWithUrl(db, row.tenantId, row.url, row.id).limit(1),
  });
  const [inserted] = insertedRows;
  if (inserted) return { endpoint: inserted };
  return { refused: sameUrlRows.length > 0 ? 'url_taken' : 'too_many' };
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

export type EndpointUpdate = { endpoint: WebhookEndpoint } | { refused: 'not_found' | 'url_taken' };

/**
 * A PATCH: applies `changes` unless the endpoint would become enabled with a URL another enabled
 * endpoint of the tenant has (its URL changing, or it being enabled again). The check is in the
 * UPDATE's WHERE, so two such writes at once cannot both pass it; an endpoint already enabled with
 * its URL is never refused for it (an edit of its description, say).
 */
export async function updateEndpointUnlessUrlTaken(db: Database, tenantId: string, id: string, changes: Partial<typeof webhookEndpoints.$inferInsert>): Promise<EndpointUpdate> {
  const url = changes.url ?? webhookEndpoints.url;
  const status = changes.status ?? webhookEndpoints.status;
  // In parentheses: drizzle's not() does not add them, and NOT binds tighter than AND.
  const takesEnabledUrl = sql`(${status} = 'enabled' and (${webhookEndpoints.status} <> 'enabled' or ${webhookEndpoints.url} <> ${url})
    and ${exists(enabledEndpointWithUrl(db, tenantId, url, id))})`;
  const [updatedRows, stillThereRows] = await db.batch([
    db
      .update(webhookEndpoints)
      .set({ ...changes, updatedAt: timestamp })
      .where(and(byId(tenantId, id), not(takesEnabledUrl)))
      .returning(),
    db.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(byId(tenantId, id)),
  ]);
  const [endpoint] = updatedRows;
  if (endpoint) return { endpoint };
  return { refused: stillThereRows.length > 0 ? 'url_taken' : 'not_found' };
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
