import { z } from '@hono/zod-openapi';
import { nullableRef, trimmedText, xpAmountInput } from './common';
import { internalTransactionSchema } from './internal-transaction';

export const reverseCreditBodySchema = z
  .strictObject({
    amount: xpAmountInput('positive').optional().openapi({ description: 'XP to take back; default: what is left of the credit after earlier reversals' }),
    reason: trimmedText(500).optional().openapi({ description: 'Why (a return, an order canceled): stored as the reversal’s notes' }),
  })
  .openapi('ReverseCreditBody');

export const reversalSchema = z
  .strictObject({
    internal_transaction: nullableRef(internalTransactionSchema).openapi({
      description:
        'The `xp_reversal` written (`pending` with a pending credit, completing with it), the credit itself when a pending credit was canceled whole (`failed`), or null when nothing could be taken back',
    }),
    reversed: z.string().openapi({ description: 'XP taken back', example: '40' }),
    unrecovered: z.string().openapi({ description: 'XP of the request that could not be taken back: the customer had already spent it', example: '0' }),
  })
  .openapi('Reversal');

export type ReverseCreditBody = z.infer<typeof reverseCreditBodySchema>;
export type ReversalView = z.infer<typeof reversalSchema>;
