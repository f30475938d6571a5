import { and, count, desc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { exportJobs, type ExportJob } from '../db/schema';
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

export async function findExportJob(db: Database, tenantId: string, id: string): Promise<ExportJob | undefined> {
  const [row] = await db.select().from(exportJobs).where(byId(tenantId, id));
  return row;
}

/** The job a queue message names: messages carry the id only (the tenant is the job's). */
export async function findExportJobById(db: Database, id: string): Promise<ExportJob | undefined> {
  const [row] = await db.select().from(exportJobs).where(eq(exportJobs.id, id));
  return row;
}

/** Newest first; rowid breaks ties within one millisecond. */
export async function findExportJobPage(db: Database, tenantId: string, params: PageParams) {
  const where = eq(exportJobs.tenantId, tenantId);
  const [rows, [total]] = await db.batch([
    db.select().from(exportJobs).where(where).orderBy(desc(exportJobs.createdAt), desc(sql`${exportJobs}.rowid`)).limit(params.limit).offset(offsetOf(params)),
    db.select({ value: count() }).from(exportJobs).where(where),
  ]);
  return { rows, total: total?.value ?? 0 };
}

/**
 * A delivery of the job's message takes the job over (`run_id`), unless it is already finished:
 * a message redelivered after completion changes nothing. Answers the job, or undefined when finished.
 */
export async function claimExportRun(db: Database, id: string, runId: string, now: string): Promise<ExportJob | undefined> {
  const [row] = await db
    .update(exportJobs)
    .set({ status: 'running', runId, updatedAt: now })
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

/** Completed jobs whose files are past retention (oldest first), at most `limit`. */
export function exportsPastRetention(db: Database, completedBefore: string, limit: number) {
  return db
    .select({ id: exportJobs.id, fileKey: exportJobs.fileKey })
    .from(exportJobs)
    .where(and(eq(exportJobs.status, 'completed'), lt(exportJobs.completedAt, completedBefore)))
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
