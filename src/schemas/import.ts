import { z } from '@hono/zod-openapi';
import { importKinds, importStatuses } from '../db/schema';
import { JOB_ERRORS_SHOWN } from '../domain/imports';
import { dateTime } from './common';

export const importKindQuery = z.strictObject({
  kind: z.enum(importKinds).openapi({
    description:
      'customers: `external_id` (required), `email`, `username`, `country_code`, `status`, and `attr.<key>` per attribute; balances: `external_id`, `amount` (required), `notes`, `expires_at`',
  }),
});

export const importRowErrorSchema = z.strictObject({
  row: z.number().int().openapi({ description: 'The row as a spreadsheet numbers it: the header is row 1' }),
  message: z.string(),
});

export const importJobSchema = z
  .strictObject({
    id: z.string(),
    kind: z.enum(importKinds),
    status: z.enum(importStatuses),
    file_sha256: z.string().openapi({ description: 'SHA-256 of the file (hex): the same file and kind again is the same job' }),
    rows_total: z.number().int(),
    rows_ok: z.number().int(),
    rows_failed: z.number().int(),
    errors: z.array(importRowErrorSchema).openapi({ description: `The first ${JOB_ERRORS_SHOWN} row errors, in row order` }),
    errors_url: z.string().nullable().openapi({ description: 'Every row error as CSV (`row,message`), once the import completed with errors: `GET` it with the same token (null until then, and after the retention period)' }),
    created_by: z.string().openapi({ description: 'The account that uploaded the file' }),
    created_at: dateTime,
    completed_at: dateTime.nullable(),
  })
  .openapi('ImportJob');

export type ImportJobView = z.infer<typeof importJobSchema>;
export type ImportRowErrorView = z.infer<typeof importRowErrorSchema>;
