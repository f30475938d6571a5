import { and, asc, count, desc, eq, gt, isNotNull, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { importChunks, importErrors, importJobs, type ImportJob, type ImportKind } from '../db/schema';
import { offsetOf, type PageParams } from '../lib/paging';
import { selectedRow } from './insert-select';

/** Import jobs, their applied chunks and row errors (src/db/schema/imports.ts), always by tenant. */

export type NewImportJob = Pick<
  ImportJob,
  'id' | 'tenantId' | 'kind' | 'fileSha256' | 'fileKey' | 'fileBytes' | 'columns' | 'chunkOffsets' | 'chunkRows' | 'chunksTotal' | 'rowsTotal' | 'createdBy' | 'createdAt'
>;

/** Inserts the job unless the tenant has one for the same file and kind (no row returned then). */
export function insertImportJobStatement(db: Database, job: NewImportJob) {
  const empty = job.chunksTotal === 0;
  return db
    .insert(importJobs)
    .values({ ...job, status: empty ? 'completed' : 'queued', completedAt: empty ? job.createdAt : null, updatedAt: job.createdAt })
    .onConflictDoNothing()
    .returning();
}

export function importJobByFileQuery(db: Database, tenantId: string, kind: ImportKind, fileSha256: string) {
  return db
    .select()
    .from(importJobs)
    .where(and(eq(importJobs.tenantId, tenantId), eq(importJobs.kind, kind), eq(importJobs.fileSha256, fileSha256)))
    .limit(1);
}

export function importJobByIdQuery(db: Database, tenantId: string, id: string) {
  return db
    .select()
    .from(importJobs)
    .where(and(eq(importJobs.id, id), eq(importJobs.tenantId, tenantId)))
    .limit(1);
}

/** A page of the tenant's jobs, newest first (rowid breaks ties within one millisecond), with the total. */
export function importJobPageQueries(db: Database, tenantId: string, params: PageParams) {
  const where = eq(importJobs.tenantId, tenantId);
  return [
    db
      .select()
      .from(importJobs)
      .where(where)
      .orderBy(desc(importJobs.createdAt), desc(sql`rowid`))
      .limit(params.limit)
      .offset(offsetOf(params)),
    db.select({ value: count() }).from(importJobs).where(where),
  ] as const;
}

/** A job's row errors in row order, after `afterRow` (keyset pages for the error file). */
export function importErrorsQuery(db: Database, tenantId: string, importId: string, limit: number, afterRow = 0) {
  return db
    .select({ row: importErrors.row, message: importErrors.message })
    .from(importErrors)
    .where(and(eq(importErrors.importId, importId), eq(importErrors.tenantId, tenantId), gt(importErrors.row, afterRow)))
    .orderBy(asc(importErrors.row))
    .limit(limit);
}

/** Whether the chunk was applied already (a redelivery then skips reading the file). */
export function chunkAppliedQuery(db: Database, tenantId: string, importId: string, chunk: number) {
  return db
    .select({ chunk: importChunks.chunk })
    .from(importChunks)
    .where(and(eq(importChunks.importId, importId), eq(importChunks.chunk, chunk), eq(importChunks.tenantId, tenantId)));
}

/**
 * The chunk's marker, first in the chunk's batch: a chunk applied before fails its primary key
 * and D1 rolls the whole batch back (`isChunkApplied`), so no row is applied twice.
 */
export function chunkMarkerStatement(db: Database, marker: { tenantId: string; importId: string; chunk: number; now: string }) {
  return db.insert(importChunks).values({ importId: marker.importId, chunk: marker.chunk, tenantId: marker.tenantId, appliedAt: marker.now });
}

/** True when a chunk's batch was rolled back because the chunk was applied before. */
export function isChunkApplied(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error);
  return /UNIQUE constraint failed: import_chunks\.|PRIMARY KEY.*import_chunks/.test(text);
}

export type RowError = { row: number; message: string };

/** The chunk's row errors as one statement (one JSON value bound, whatever their number). */
export function rowErrorsStatement(db: Database, tenantId: string, importId: string, errors: readonly RowError[]) {
  if (errors.length === 0) return undefined;
  const each = sql`json_each(${JSON.stringify(errors)}) as e`;
  return db.insert(importErrors).select(
    db
      .select(selectedRow(importErrors, { importId, row: sql`json_extract(e.value, '$.row')`, tenantId, message: sql`json_extract(e.value, '$.message')` }))
      .from(each),
  );
}

/**
 * Counts a chunk's rows into its job, in the chunk's batch: `running` until the last chunk, then
 * `completed`. RETURNING the job as it is after.
 */
export function chunkProgressStatement(db: Database, progress: { tenantId: string; importId: string; ok: number; failed: number; now: string }) {
  const done = sql`${importJobs.chunksDone} + 1 >= ${importJobs.chunksTotal}`;
  return db
    .update(importJobs)
    .set({
      rowsOk: sql`${importJobs.rowsOk} + ${progress.ok}`,
      rowsFailed: sql`${importJobs.rowsFailed} + ${progress.failed}`,
      chunksDone: sql`${importJobs.chunksDone} + 1`,
      resumes: 0,
      status: sql`(case when ${done} then 'completed' else 'running' end)`,
      completedAt: sql`(case when ${done} then ${progress.now} else null end)`,
      updatedAt: progress.now,
    })
    .where(and(eq(importJobs.id, progress.importId), eq(importJobs.tenantId, progress.tenantId)))
    .returning();
}

/** Marks a job failed (its file is gone, or its chunks keep failing): the chunks not yet applied never will be. */
export function failImportJobStatement(db: Database, tenantId: string, importId: string, now: string) {
  return db
    .update(importJobs)
    .set({ status: 'failed', completedAt: now, updatedAt: now })
    .where(and(eq(importJobs.id, importId), eq(importJobs.tenantId, tenantId), or(eq(importJobs.status, 'queued'), eq(importJobs.status, 'running'))));
}

export function setErrorFileStatement(db: Database, tenantId: string, importId: string, key: string) {
  return db
    .update(importJobs)
    .set({ errorFileKey: key })
    .where(and(eq(importJobs.id, importId), eq(importJobs.tenantId, tenantId)));
}

/** Jobs of every tenant finished before `before` whose files are still in R2 (the retention job). */
export function jobsWithExpiredFilesQuery(db: Database, before: string, limit: number) {
  return db
    .select({ id: importJobs.id, tenantId: importJobs.tenantId, fileKey: importJobs.fileKey, errorFileKey: importJobs.errorFileKey })
    .from(importJobs)
    .where(and(isNotNull(importJobs.completedAt), lt(importJobs.completedAt, before), isNull(importJobs.filesDeletedAt)))
    .limit(limit);
}

/** After the retention job deleted the job's files: the job and its counts stay, its error file is gone. */
export function filesDeletedStatement(db: Database, tenantId: string, importId: string, now: string) {
  return db
    .update(importJobs)
    .set({ fileKey: null, errorFileKey: null, filesDeletedAt: now })
    .where(and(eq(importJobs.id, importId), eq(importJobs.tenantId, tenantId)));
}

/** Jobs of every tenant still queued or running with no progress since `before` (the hourly resume). */
export function stalledImportJobsQuery(db: Database, before: string, limit: number) {
  return db
    .select()
    .from(importJobs)
    .where(and(or(eq(importJobs.status, 'queued'), eq(importJobs.status, 'running')), lt(importJobs.updatedAt, before)))
    .limit(limit);
}

/** The chunks of a job applied so far. */
export function appliedChunksQuery(db: Database, tenantId: string, importId: string) {
  return db
    .select({ chunk: importChunks.chunk })
    .from(importChunks)
    .where(and(eq(importChunks.importId, importId), eq(importChunks.tenantId, tenantId)));
}

/** Marks a stalled job as resumed now (one more resume), so the next hourly run leaves it an hour to progress. */
export function resumedImportJobStatement(db: Database, tenantId: string, importId: string, now: string) {
  return db
    .update(importJobs)
    .set({ updatedAt: now, resumes: sql`${importJobs.resumes} + 1` })
    .where(and(eq(importJobs.id, importId), eq(importJobs.tenantId, tenantId)));
}

/** Keeps a job's first `kept` row errors (what the job shows) once its error file is deleted. */
export function trimImportErrorsStatement(db: Database, tenantId: string, importId: string, kept: number) {
  const keptRows = db
    .select({ row: importErrors.row })
    .from(importErrors)
    .where(and(eq(importErrors.importId, importId), eq(importErrors.tenantId, tenantId)))
    .orderBy(asc(importErrors.row))
    .limit(kept);
  return db
    .delete(importErrors)
    .where(and(eq(importErrors.importId, importId), eq(importErrors.tenantId, tenantId), notInArray(importErrors.row, keptRows)));
}
