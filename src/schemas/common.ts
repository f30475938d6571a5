import { z } from '@hono/zod-openapi';
import { MAX_XP_AMOUNT } from '../domain/ledger';

export const dateTime = z.string().openapi({ format: 'date-time', example: '2026-11-21T12:00:00.000Z' });

/** Any JSON value (spec: "any JSON"). */
export const anyJson = z.unknown().openapi({ type: 'object', description: 'Any JSON value' });

export const tenantBriefSchema = z.strictObject({ id: z.string(), name: z.string(), slug: z.string() }).openapi('TenantBrief');
export const userBriefSchema = z.strictObject({ id: z.string(), username: z.string(), email: z.string() }).openapi('UserBrief');

/** Whole XP amounts carried as strings, e.g. "150" or "-20". */
export const xpString = z.string().regex(/^-?\d+$/).openapi({ example: '150' });

/**
 * `schema | null` for a named (component) schema. zod-to-openapi renders `.nullable()` on a
 * registered schema as an `allOf` that can never be null; a union renders `anyOf [$ref, null]`.
 */
export function nullableRef<T extends z.ZodType>(schema: T) {
  return z.union([schema, z.null()]);
}

const WHOLE_NUMBER = 'Must be a whole number (a JSON integer or an integer string such as "150")';

/**
 * An XP amount as a client sends it: a JSON integer or an integer string (amounts are strings in
 * responses, so both round-trip), within ±MAX_XP_AMOUNT. Yields a number; fractions, exponents,
 * blanks and non-numeric strings are a 422.
 */
export function xpAmountInput(rule: { check: (amount: number) => boolean; message: string }) {
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
