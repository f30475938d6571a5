import { z } from '@hono/zod-openapi';
import { MAX_XP_AMOUNT } from '../domain/ledger';

const WHOLE_NUMBER = 'Must be a whole number (a JSON integer or an integer string such as "150")';

/**
 * An XP amount as a client sends it: a JSON integer or an integer string (amounts are strings in
 * responses, so both round-trip), within ±MAX_XP_AMOUNT. Yields a number; fractions, exponents,
 * blanks and non-numeric strings are a 422.
 */
function xpAmount(rule: { check: (amount: number) => boolean; message: string }) {
  return z
    .union([z.int(), z.string().regex(/^-?\d+$/)], { error: WHOLE_NUMBER })
    .transform((value) => Number(value))
    .pipe(
      z
        .number()
        .min(-MAX_XP_AMOUNT, `Must be at least -${MAX_XP_AMOUNT}`)
        .max(MAX_XP_AMOUNT, `Must be at most ${MAX_XP_AMOUNT}`)
        .refine(rule.check, rule.message),
    )
    .openapi({ type: 'string', example: '150', description: `Whole XP amount, string or integer, at most ${MAX_XP_AMOUNT} in size` });
}

const notes = z.string().trim().min(1).max(1000);
/** Free-form partner data stored with the transaction and returned as `metadata`. */
const metadata = z.record(z.string(), z.unknown()).openapi({ type: 'object', example: { order_id: 'ord_123' } });

export const earnXpBodySchema = z
  .strictObject({
    user_id: z.string().min(1).openapi({ example: 'cus_3k9abc' }),
    type: z.enum(['xp_earn', 'xp_bonus']),
    amount: xpAmount({ check: (amount) => amount > 0, message: 'Must be greater than 0' }),
    notes: notes.optional(),
    metadata: metadata.optional(),
  })
  .openapi('EarnXpBody');

export const xpAdjustmentBodySchema = z
  .strictObject({
    amount: xpAmount({ check: (amount) => amount !== 0, message: 'Must not be 0' }),
    /** Required: an adjustment without a reason cannot be audited. */
    notes,
  })
  .openapi('XpAdjustmentBody');

export type EarnXpBody = z.infer<typeof earnXpBodySchema>;
export type XpAdjustmentBody = z.infer<typeof xpAdjustmentBodySchema>;
