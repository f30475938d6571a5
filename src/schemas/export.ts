import { z } from '@hono/zod-openapi';
import { exportKinds, exportStatuses } from '../db/schema';
import { SIGNATURE_PATTERN } from '../auth/download-links';
import { queryInteger } from '../lib/paging';
import { dateTime, pathId, resourceId } from './common';

const periodBound = z.iso.datetime({ offset: true }).openapi({ example: '2026-11-01T00:00:00Z', description: 'ISO 8601 date-time (any offset); inclusive' });

export const createExportBodySchema = z
  .strictObject({
    kind: z.enum(exportKinds).openapi({ description: 'What to export (docs/OPERATIONS.md lists each kind\'s columns)' }),
    cohort_id: resourceId.optional().openapi({ description: 'The cohort whose members to export: required for `cohort_members`, refused otherwise' }),
    from: periodBound.optional().openapi({ description: 'Rows created at or after this time (`customers`, `internal_transactions`)' }),
    to: periodBound.optional().openapi({ description: 'Rows created at or before this time (`customers`, `internal_transactions`)' }),
  })
  .openapi('CreateExport');

export type CreateExportBody = z.infer<typeof createExportBodySchema>;

export const exportJobSchema = z
  .strictObject({
    id: z.string().openapi({ example: 'exp_3k9w2m4q7z5x8c6v1b0n2m4q7z' }),
    kind: z.enum(exportKinds),
    status: z.enum(exportStatuses).openapi({ description: '`expired`: completed, and its file deleted after the retention period (7 days)' }),
    rows: z.number().int().openapi({ description: 'Data rows in the file (the header aside); 0 until completed' }),
    cohort_id: z.string().nullable(),
    from: dateTime.nullable(),
    to: dateTime.nullable(),
    download_url: z.string().nullable().openapi({
      description: 'A signed link to the CSV, served without a token (a browser download), valid until `expires_at`; each read of the job issues a fresh one. Null unless `completed`.',
    }),
    expires_at: dateTime.nullable().openapi({ description: 'When `download_url` stops working (1 hour after this read); null without a link' }),
    failure_reason: z.string().nullable(),
    created_by: z.string().openapi({ description: 'The account that requested it' }),
    created_at: dateTime,
    completed_at: dateTime.nullable(),
    file_expires_at: dateTime.nullable().openapi({ description: 'When the retention job deletes the file (7 days after completion)' }),
  })
  .openapi('ExportJob');

export type ExportJobView = z.infer<typeof exportJobSchema>;

/** The file route's path and query: a presigned link (src/auth/download-links.ts). */
export const fileParams = z.object({ exportId: pathId('exportId', 'The export id (`exp_...`)') });
export const fileQuery = z.object({
  expires: queryInteger(0, 99_999_999_999).openapi({ description: 'Unix seconds after which the link stops working', example: 1795500000 }),
  signature: z.string().regex(SIGNATURE_PATTERN).openapi({ description: 'base64url HMAC-SHA256 of the export id and `expires`' }),
});
