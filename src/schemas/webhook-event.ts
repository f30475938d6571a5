import { z } from '@hono/zod-openapi';
import { webhookEventTypes, type WebhookEventType } from '../db/schema';
import { envelopeOf } from '../lib/envelope';
import { dateTime, nullableRef } from './common';
import { customerSchema } from './customer';
import { expiringPointLotSchema } from './point-lot';
import { blockchainTransactionSchema, internalTransactionSchema } from './internal-transaction';
import { redemptionSchema } from './redemption';

const resourceOf = {
  customer: customerSchema,
  xpTransaction: internalTransactionSchema,
  redemption: redemptionSchema,
  onchainTransaction: blockchainTransactionSchema,
};

const resourceOfType: Record<WebhookEventType, z.ZodType> = {
  'customer.created': resourceOf.customer,
  'customer.status_changed': resourceOf.customer,
  'customer.tier_changed': resourceOf.customer,
  'customer.erased': resourceOf.customer,
  'xp.transaction.completed': resourceOf.xpTransaction,
  'xp.transaction.failed': resourceOf.xpTransaction,
  'xp.expiring': expiringPointLotSchema,
  'xp.expired': resourceOf.xpTransaction,
  'redemption.completed': resourceOf.redemption,
  'redemption.failed': resourceOf.redemption,
  'redemption.canceled': resourceOf.redemption,
  'onchain.transaction.succeeded': resourceOf.onchainTransaction,
  'onchain.transaction.failed': resourceOf.onchainTransaction,
};

const previousAttributes: Partial<Record<WebhookEventType, z.ZodType>> = {
  'customer.status_changed': z.strictObject({ status: z.string() }),
  'customer.tier_changed': z.strictObject({ tier: z.strictObject({ id: z.string(), tier_name: z.string() }).nullable() }),
  'redemption.failed': z.strictObject({ status: z.string() }),
  'redemption.canceled': z.strictObject({ status: z.string() }),
  'redemption.completed': z.strictObject({ status: z.string() }),
};

/** Types whose change has a reason. */
const reasons: Partial<Record<WebhookEventType, z.ZodType>> = {
  'customer.tier_changed': z.enum(['upgrade', 'review']).openapi({
    description: '`upgrade`: a higher tier, at once; `review`: a lower one, at a review of a tier held on `earned_in_period` (or when the tenant leaves it)',
  }),
};

function eventSchema(type: WebhookEventType) {
  const previous = previousAttributes[type];
  const reason = reasons[type];
  return z.strictObject({
    id: z.string().openapi({ description: 'Also the `webhook-id` header: the same on every attempt and replay', example: 'evt_0f3c2a9b8d7e6f5a4b3c2d1e0f9a8b7c' }),
    type: z.literal(type),
    created_at: dateTime.openapi({ description: 'When the change happened' }),
    tenant_id: z.string(),
    data: envelopeOf(nullableRef(resourceOfType[type]).openapi({ description: 'The resource as the API presents it; null if it no longer exists' })),
    ...(previous ? { previous_attributes: previous.optional().openapi({ description: 'The changed fields before the change' }) } : {}),
    ...(reason ? { reason } : {}),
  });
}

/** The body of every webhook request, by `type` (also the OpenAPI document's `webhooks`). */
export const webhookEventSchema = z
  .discriminatedUnion(
    'type',
    webhookEventTypes.map((type) => eventSchema(type)) as unknown as [ReturnType<typeof eventSchema>, ...ReturnType<typeof eventSchema>[]],
  )
  .openapi('WebhookEvent');

/** What services/webhook-events.ts renders; the schema above checks it in tests. */
export type WebhookEventBody = {
  id: string;
  type: WebhookEventType;
  created_at: string;
  tenant_id: string;
  data: { success: true; data: unknown };
  previous_attributes?: Record<string, unknown>;
  reason?: string;
};
