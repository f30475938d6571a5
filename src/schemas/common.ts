import { z } from '@hono/zod-openapi';
import { MAX_XP_AMOUNT } from '../domain/ledger';

export const dateTime = z.string().openapi({ format: 'date-time', example: '2026-11-21T12:00:00.000Z' });

/**
 * Any JSON value, `null` included (spec: "any JSON, nullable"); stored and answered as sent. The key
 * itself is required (`.optional()` where it may be left out).
 */
export const anyJson = z.unknown().nonoptional().openapi({ description: 'Any JSON value (object, array, string, number, boolean or null)', example: { order_id: 'ord_123' } });

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

/**
 * Ids the API issues look like `cus_3k9x2m7q4r8t5v1w6y0z2a4b6c`. Any 1-64 letters, digits, `_` and `-`
 * are well-formed (an unknown id is then a 404 like another tenant's); anything else is a 422 before
 * storage is asked.
 */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const resourceId = z
  .string({ error: 'Must be an id (a string)' })
  .regex(ID_PATTERN, 'Must be an id: 1-64 letters, digits, "_" or "-"');

/** A path segment holding an id (OpenAPI `in: path`). */
export function pathId(name: string, description?: string) {
  return resourceId.openapi({ param: { name, in: 'path' }, description });
}

const CONTROL = '\\u0000-\\u001f\\u007f-\\u009f';
/** No control characters (U+0000-U+001F, U+007F-U+009F). */
export const NO_CONTROL_CHARACTERS = new RegExp(`^[^${CONTROL}]*$`);
/** The same, with at least one character that is not whitespace. */
const NOT_BLANK_NOR_CONTROL = new RegExp(`^[^${CONTROL}]*[^\\s${CONTROL}][^${CONTROL}]*$`);

/** Free text a client filters by (the value of a trimmedPlainText field): bounded, no control characters. */
export function plainText(max: number) {
  return z.string().min(1).max(max).regex(NO_CONTROL_CHARACTERS, 'Must not contain control characters');
}

/**
 * Text stored trimmed. The bounds apply to the value as sent and "not blank" is a `pattern`
 * (JS `\s` is exactly what `trim()` removes), so the document states exactly what passes.
 */
export function trimmedText(max: number) {
  return z.string().max(max).regex(/\S/, 'Must not be blank').trim();
}

/** trimmedText without control characters: for values clients also filter by. */
export function trimmedPlainText(max: number) {
  return z.string().max(max).regex(NOT_BLANK_NOR_CONTROL, 'Must not be blank or contain control characters').trim();
}

/**
 * Email addresses as browsers accept them (WHATWG HTML "valid email address"): the document says
 * `format: email` and shows this exact pattern; quoted local parts and IP literals are not accepted.
 */
export const emailAddress = z
  .email({ pattern: z.regexes.html5Email, error: 'Must be an email address such as jane@example.com' })
  .max(254)
  .openapi({ pattern: z.regexes.html5Email.source, example: 'jane@example.com' });

/** 1..MAX_XP_AMOUNT written canonically: digits only, no leading zero. Tied to MAX_XP_AMOUNT = 10^9 (unit-tested). */
const UP_TO_MAX_XP = '(?:[1-9]\\d{0,8}|1000000000)';

export const xpAmountPatterns = {
  positive: new RegExp(`^${UP_TO_MAX_XP}$`),
  nonZero: new RegExp(`^-?${UP_TO_MAX_XP}$`),
} as const;

type XpAmountKind = keyof typeof xpAmountPatterns;

/** Why a string is not an XP amount of this kind (the pattern alone decides; this only explains). */
function xpAmountProblem(value: string, kind: XpAmountKind): string | undefined {
  if (xpAmountPatterns[kind].test(value)) return undefined;
  if (!/^-?\d+$/.test(value)) return 'Must be a whole number written as a string of digits, e.g. "150"';
  if (/^-?0\d/.test(value)) return 'Write the number without leading zeros';
  if (Number(value) === 0) return kind === 'positive' ? 'Must be greater than 0' : 'Must not be 0';
  if (kind === 'positive' && value.startsWith('-')) return 'Must be greater than 0';
  return kind === 'positive' ? `Must be at most ${MAX_XP_AMOUNT}` : `Must be between -${MAX_XP_AMOUNT} and ${MAX_XP_AMOUNT}`;
}

/**
 * An XP amount as a client sends it: a string of digits (CONTRACT: amounts are strings), exactly the
 * documented `pattern`, yielding a number. A JSON number is refused with a hint to quote it.
 */
export function xpAmountInput(kind: XpAmountKind) {
  const range = kind === 'positive' ? `1 to ${MAX_XP_AMOUNT}` : `-${MAX_XP_AMOUNT} to ${MAX_XP_AMOUNT}, not 0`;
  return z
    .string({
      error: (issue) => (typeof issue.input === 'number' ? 'Send the amount as a string, e.g. "150"' : 'Must be a string of digits, e.g. "150"'),
    })
    .superRefine((value, ctx) => {
      const problem = xpAmountProblem(value, kind);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform(Number)
    .openapi({
      pattern: xpAmountPatterns[kind].source,
      example: '150',
      description: `Whole XP amount as a string of digits, ${range} (a JSON number is refused)`,
      'x-minimum': kind === 'positive' ? 1 : -MAX_XP_AMOUNT,
      'x-maximum': MAX_XP_AMOUNT,
    });
}
