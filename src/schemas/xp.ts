import { z } from '@hono/zod-openapi';
import { freeFormJson, resourceId, trimmedText, xpAmountInput } from './common';

const notes = trimmedText(1000, 'many');

export const earnXpBodySchema = z
  .strictObject({
    user_id: resourceId.openapi({ description: 'The customer id (`cus_...`)' }),
    type: z.enum(['xp_earn', 'xp_bonus']),
    amount: xpAmountInput('positive'),
    notes: notes.optional(),
    /** Free-form partner data stored with the transaction and returned as `metadata`. */
    metadata: freeFormJson.optional(),
  })
  .openapi('EarnXpBody');

export const xpAdjustmentBodySchema = z
  .strictObject({
    amount: xpAmountInput('nonZero'),
    /** Required: an adjustment without a reason cannot be audited. */
    notes,
  })
  .openapi('XpAdjustmentBody');

export type EarnXpBody = z.infer<typeof earnXpBodySchema>;
export type XpAdjustmentBody = z.infer<typeof xpAdjustmentBodySchema>;
