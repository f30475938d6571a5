import { desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { auditLog } from '../../src/db/schema';
import { auditEntrySchema, type AuditEntryView } from '../../src/schemas/audit-log';
import { toAuditEntryView } from '../../src/services/audit-log';
import type { JsonResponse } from '../support/http';
import { db } from '../support/world';

/** The entries a request of `tenantId` recorded (on its shard), found by the X-Request-Id it answered with, each checked against the documented schema. */
export async function entriesOf(tenantId: string, res: JsonResponse): Promise<AuditEntryView[]> {
  const requestId = res.headers.get('x-request-id');
  expect(requestId).toBeTruthy();
  const rows = await db(tenantId).select().from(auditLog).where(eq(auditLog.requestId, requestId!)).orderBy(desc(auditLog.at));
  return rows.map((row) => auditEntrySchema.parse(toAuditEntryView(row)));
}

/** Every entry of the tenant, newest first. */
export async function tenantEntries(tenantId: string): Promise<AuditEntryView[]> {
  const rows = await db(tenantId).select().from(auditLog).where(eq(auditLog.tenantId, tenantId)).orderBy(desc(auditLog.at));
  return rows.map(toAuditEntryView);
}
