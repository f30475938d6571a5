import { and, count, desc, eq, inArray, isNotNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { customers, exportJobs, type ExportJob } from '../db/schema';
import { offsetOf, type PageParams } from '../lib/paging';

export type NewExportJob = Pick<ExportJob, 'id' | 'tenantId' | 'kind' | 'cohortId' | 'periodFrom' | 'periodTo' | 'createdBy'>;

const byId = (tenantId: string, id: string) => and(eq(exportJobs.tenantId, tenantId), eq(exportJobs.id, id));

export async function insertExportJob(db: Database, job: NewExportJob, now: string): Promise<ExportJob> {
  const [row] = await db
    .insert(exportJobs)
    .values({ ...job, status: 'queued', createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

/** The tenant's latest erasure (through index customers_tenant_erased): files begun before it may show the person. */
function lastErasureQuery(db: Database, tenantId: string) {
  return db
    .select({ at: sql<string | null>`max(${customers.erasedAt})` })
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), isNotNull(customers.erasedAt)));
}

export async function findExportJob(db: Database, tenantId: string, id: string): Promise<{ job: ExportJob | undefined; lastErasureAt: string | null }> {
  const [[job], [erasure]] = await db.batch([db.select().from(exportJobs).where(byId(tenantId, id)), lastErasureQuery(db, tenantId)]);
  return { job, lastErasureAt: erasure?.at ?? null };
}

/** The latest erasure of the job's own tenant, for a statement over export_jobs (index customers_tenant_erased). */
const lastErasureOfJobTenant = sql<string | null>`(select max(c.erased_at) from ${customers} c where c.tenant_id = ${exportJobs.tenantId} and c.erased_at is not null)`;

/** A job by id alone (a download link names the export; the tenant is the job's), with its tenant's latest erasure. */
export async function findExportJobById(db: Database, id: string): Promise<{ job: ExportJob | undefined; lastErasureAt: string | null }> {
  const [row] = await db.select({ job: exportJobs, lastErasureAt: lastErasureOfJobTenant }).from(exportJobs).where(eq(exportJobs.id, id));
  return { job: row?.job, lastErasureAt: row?.lastErasureAt ?? null };
}

/** Newest first; rowid breaks ties within one millisecond. */
export async function findExportJobPage(db: Database, tenantId: string, params: PageParams) {
  const where = eq(exportJobs.tenantId, tenantId);
  const [rows, [total], [erasure]] = await db.batch([
    db.select().from(exportJobs).where(where).orderBy(desc(exportJobs.createdAt), desc(sql`${exportJobs}.rowid`)).limit(params.limit).offset(offsetOf(params)),
    db.select({ value: count() }).from(exportJobs).where(where),
    lastErasureQuery(db, tenantId),
  ]);
  return { rows, total: total?.value ?? 0, lastErasureAt: erasure?.at ?? null };
}

/**
 * A delivery of the job's message takes the job over (`run_id`), unless it is already finished:
 * a message redelivered after completion changes nothing. Answers the job, or undefined when finished.
 */
export async function claimExportRun(db: Database, id: string, runId: string, now: string): Promise<ExportJob | undefined> {
  const [row] = await db
    .update(exportJobs)
    .set({ status: 'running', runId, startedAt: now, updatedAt: now })
    .where(and(eq(exportJobs.id, id), sql`${exportJobs.status} in ('queued', 'running')`))
    .returning();
  return row;
}

/**
 * Completes the job with the run's file, only while the run still holds the job: when a later
 * delivery took it over, the later run's file is the job's and this one's is answered false
 * (its caller deletes it).
 */
export async function completeExportRun(db: Database, id: string, runId: string, result: { fileKey: string; rows: number }, now: string): Promise<boolean> {
  const rows = await db
    .update(exportJobs)
    .set({ status: 'completed', fileKey: result.fileKey, rows: result.rows, completedAt: now, updatedAt: now })
    .where(and(eq(exportJobs.id, id), eq(exportJobs.runId, runId), eq(exportJobs.status, 'running')))
    .returning({ id: exportJobs.id });
  return rows.length > 0;
}

/** A run that cannot finish for a reason the caller can act on (its cohort was deleted). */
export async function failExportRun(db: Database, id: string, runId: string, reason: string, now: string): Promise<void> {
  await db
    .update(exportJobs)
    .set({ status: 'failed', failureReason: reason, updatedAt: now })
    .where(and(eq(exportJobs.id, id), eq(exportJobs.runId, runId), ne(exportJobs.status, 'completed')));
}

/**
 * Completed jobs whose files are past retention, or begun before an erasure of their tenant (they
 * may show the person), oldest first, at most `limit`.
 */
export function exportsPastRetention(db: Database, completedBefore: string, limit: number) {
  return db
    .select({ id: exportJobs.id, fileKey: exportJobs.fileKey })
    .from(exportJobs)
    .where(and(eq(exportJobs.status, 'completed'), or(lt(exportJobs.completedAt, completedBefore), sql`${exportJobs.startedAt} <= ${lastErasureOfJobTenant}`)))
    .orderBy(exportJobs.completedAt)
    .limit(limit);
}

/** Marks jobs whose files were deleted: they show `expired`, without a link. */
export async function markExportsExpired(db: Database, ids: readonly string[], now: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(exportJobs)
    .set({ status: 'expired', expiredAt: now, updatedAt: now })
    .where(and(inArray(exportJobs.id, [...ids]), eq(exportJobs.status, 'completed')));
}

/** Jobs queued or running with no run claiming them since `updatedBefore` fail with `reason` (their message is gone). */
export async function failAbandonedExports(db: Database, updatedBefore: string, reason: string, now: string): Promise<number> {
  const rows = await db
    .update(exportJobs)
    .set({ status: 'failed', failureReason: reason, updatedAt: now })
    .where(and(inArray(exportJobs.status, ['queued', 'running']), lt(exportJobs.updatedAt, updatedBefore)))
    .returning({ id: exportJobs.id });
  return rows.length;
}
