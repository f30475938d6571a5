import { z } from '@hono/zod-openapi';
import { xpAmountInput } from './common';

const notes = z.string().trim().min(1).max(1000);
/** Free-form partner data stored with the transaction and returned as `metadata`. */
const metadata = z.record(z.string(), z.unknown()).openapi({ type: 'object', example: { order_id: 'ord_123' } });

export const earnXpBodySchema = z
  .strictObject({
    user_id: z.string().min(1).openapi({ example: 'cus_3k9abc' }),
    type: z.enum(['xp_earn', 'xp_bonus']),
    amount: xpAmountInput({ check: (amount) => amount > 0, message: 'Must be greater than 0' }),
    notes: notes.optional(),
    metadata: metadata.optional(),
  })
  .openapi('EarnXpBody');

export const xpAdjustmentBodySchema = z
  .strictObject({
    amount: xpAmountInput({ check: (amount) => amount !== 0, message: 'Must not be 0' }),
    /** Required: an adjustment without a reason cannot be audited. */
    notes,
  })
  .openapi('XpAdjustmentBody');

export type EarnXpBody = z.infer<typeof earnXpBodySchema>;
export type XpAdjustmentBody = z.infer<typeof xpAdjustmentBodySchema>;
