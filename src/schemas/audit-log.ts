import { z } from '@hono/zod-openapi';
import { auditActorTypes } from '../db/schema';
import { pageQuery } from '../lib/paging';
import { anyJson, dateTime, resourceId } from './common';

export const auditEntrySchema = z
  .strictObject({
    id: z.string(),
    at: dateTime,
    actor: z.strictObject({
      type: z.enum(auditActorTypes),
      id: z.string().openapi({ description: 'The account (portal) or API key (gateway) that made the change' }),
      label: z.string().openapi({ description: "The account's email, or the API key's key_id, when the change was made" }),
    }),
    action: z.string().openapi({ description: 'The operationId of the route that made the change', example: 'updateReward' }),
    target: z.strictObject({ type: z.string().openapi({ example: 'reward' }), id: z.string() }),
    changes: z.record(z.string(), z.array(anyJson).length(2)).openapi({
      description:
        'Each changed field as [before, after], values as stored (null: none). Secrets show "[redacted]"; the personal values of an erased customer "[erased]". A created target lists every field it was given, a deleted one every field it had; `attr.<key>` fields are attribute values.',
      example: { title: ['Mug', 'Big mug'] },
    }),
    request_id: z.string().openapi({ description: 'The X-Request-Id of the request that made the change' }),
  })
  .openapi('AuditEntry');

export type AuditEntryView = z.infer<typeof auditEntrySchema>;

const instant = dateTime.max(64).datetime({ offset: true });

export const auditLogQuery = pageQuery
  .extend({
    actor_id: resourceId.optional(),
    action: z.string().regex(/^[A-Za-z]{1,64}$/, 'Must be an operationId').optional(),
    target_id: resourceId.optional(),
    from: instant.optional().openapi({ description: 'Entries at or after this instant' }),
    to: instant.optional().openapi({ description: 'Entries before this instant' }),
  })
  .refine((query) => query.from === undefined || query.to === undefined || Date.parse(query.from) <= Date.parse(query.to), {
    path: ['to'],
    message: 'Must not be before from',
  });

export type AuditLogQuery = z.infer<typeof auditLogQuery>;
