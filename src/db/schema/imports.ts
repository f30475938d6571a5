import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { id, tenantId, timestamps } from './columns';

export const importKinds = ['customers', 'balances'] as const;
export type ImportKind = (typeof importKinds)[number];

export const importStatuses = ['queued', 'running', 'completed', 'failed'] as const;
export type ImportStatus = (typeof importStatuses)[number];

/**
 * An import of a CSV file (docs/OPERATIONS.md, Imports). The file is in R2 under `file_key`; its
 * rows are applied by the operations queue in chunks whose byte ranges the upload recorded
 * (`chunk_offsets`: chunk k is the bytes [offsets[k], offsets[k+1])). The unique index makes the
 * same file of the same kind one job however often, or however concurrently, it is sent.
 */
export const importJobs = sqliteTable(
  'import_jobs',
  {
    id: id(),
    tenantId: tenantId(),
    kind: text('kind', { enum: importKinds }).notNull(),
    status: text('status', { enum: importStatuses }).notNull().default('queued'),
    fileSha256: text('file_sha256').notNull(),
    /** Null once the retention job deleted the uploaded file. */
    fileKey: text('file_key'),
    fileBytes: integer('file_bytes').notNull(),
    /** The header row as sent (JSON array of names); the chunks parse their rows against it. */
    columns: text('columns', { mode: 'json' }).$type<string[]>().notNull(),
    chunkOffsets: text('chunk_offsets', { mode: 'json' }).$type<number[]>().notNull(),
    /** Rows per chunk when the file was split (every chunk but the last has exactly this many). */
    chunkRows: integer('chunk_rows').notNull(),
    chunksTotal: integer('chunks_total').notNull(),
    chunksDone: integer('chunks_done').notNull().default(0),
    /** Times the hourly cron sent the missing chunks again since the job last progressed (data/imports.ts). */
    resumes: integer('resumes').notNull().default(0),
    rowsTotal: integer('rows_total').notNull(),
    rowsOk: integer('rows_ok').notNull().default(0),
    rowsFailed: integer('rows_failed').notNull().default(0),
    /** The CSV of every row error, written when the last chunk is applied (null while none). */
    errorFileKey: text('error_file_key'),
    /** The account that uploaded the file. */
    createdBy: text('created_by').notNull(),
    completedAt: text('completed_at'),
    /** When the retention job deleted the uploaded file and the error file from R2. */
    filesDeletedAt: text('files_deleted_at'),
    ...timestamps,
  },
  (t) => [uniqueIndex('import_jobs_tenant_kind_file').on(t.tenantId, t.kind, t.fileSha256), index('import_jobs_tenant_created').on(t.tenantId, t.createdAt)],
);

/**
 * One row per applied chunk, inserted in the chunk's own D1 batch (one transaction) with its rows:
 * a second application of the chunk fails on the primary key and rolls its whole batch back, so
 * each row is applied once however often the chunk's message is delivered.
 */
export const importChunks = sqliteTable(
  'import_chunks',
  {
    importId: text('import_id').notNull(),
    chunk: integer('chunk').notNull(),
    tenantId: tenantId(),
    appliedAt: text('applied_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.chunk] })],
);

/** Every row error of an import, written with its chunk; the job shows the first 100, the error file all. */
export const importErrors = sqliteTable(
  'import_errors',
  {
    importId: text('import_id').notNull(),
    row: integer('row').notNull(),
    tenantId: tenantId(),
    message: text('message').notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.row] })],
);

export type ImportJob = typeof importJobs.$inferSelect;
