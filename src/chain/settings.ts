import { z } from 'zod';
import { envWholeNumber } from '../lib/env-fields';

/** The settlement timings, part of the environment schema (src/config.ts). */
export const settlementFields = {
  /** Blocks a receipt must be buried under before it is final. */
  CONFIRMATIONS: envWholeNumber('CONFIRMATIONS', { min: 1, max: 1000, fallback: 1 }),
  /** Seconds a sent transaction may wait in the pool before it is re-sent with higher fees. */
  SETTLEMENT_STUCK_SECONDS: envWholeNumber('SETTLEMENT_STUCK_SECONDS', { min: 0, max: 86_400, fallback: 120 }),
};

const settlementSchema = z.object(settlementFields);

/** The timings for the queue consumer and crons, which record configuration problems per operation. */
export function settlementSettings(env: Readonly<Record<string, unknown>>): { confirmations: number; stuckAfterSeconds: number } {
  const parsed = settlementSchema.parse(env);
  return { confirmations: parsed.CONFIRMATIONS, stuckAfterSeconds: parsed.SETTLEMENT_STUCK_SECONDS };
}
