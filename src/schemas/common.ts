import { z } from '@hono/zod-openapi';
import { EMAIL_PATTERN, isEmailAddress, MAX_EMAIL_LENGTH } from '../domain/email';
import { MAX_XP_AMOUNT } from '../domain/ledger';
import { freeFormJsonProblem, MAX_JSON_BYTES, MAX_JSON_DEPTH } from '../lib/json-bounds';

export const dateTime = z.string().openapi({ format: 'date-time', example: '2026-11-21T12:00:00.000Z' });

/**
 * Any JSON value, `null` included (spec: "any JSON, nullable"), as answered. The key itself is
 * required (`.optional()` where it may be left out).
 */
export const anyJson = z.unknown().nonoptional().openapi({ description: 'Any JSON value (object, array, string, number, boolean or null)', example: { order_id: 'ord_123' } });

/**
 * Free-form JSON a client sends (`metadata`): any JSON value, stored and answered as sent, within
 * one shared bound (src/lib/json-bounds.ts; docs/decisions/0041-free-form-json-bounds.md).
 */
export const freeFormJson = z
  .unknown()
  .nonoptional()
  .superRefine((value, ctx) => {
    const problem = freeFormJsonProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .openapi({
    description: `Any JSON value (object, array, string, number, boolean or null), nesting objects and arrays at most ${MAX_JSON_DEPTH} levels deep and at most ${MAX_JSON_BYTES} bytes as compact JSON (UTF-8); beyond either, 422 at this field`,
    example: { order_id: 'ord_123' },
  });

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

/** C0 controls, DEL and C1 controls (U+0000-U+001F, U+007F-U+009F). */
const CONTROL = '\\u0000-\\u001f\\u007f-\\u009f';
/** The same but tab, line feed and carriage return, which text spanning lines keeps (CRLF line ends come from Windows backends). */
const CONTROL_BUT_LINE_BREAKS = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f';
/**
 * Unicode bidirectional controls, exactly `\p{Bidi_Control}` (unit-tested): they reorder how the
 * text around them is shown, so a name can display as something else (U+202E reverses it).
 */
const BIDI_CONTROL = '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';

/** One line (names, titles, labels, symbols, ids) or several (descriptions, notes). */
export type Lines = 'one' | 'many';

/** The characters each kind of text refuses, as the body of a regex character class. */
export const REFUSED: Record<Lines, string> = { one: CONTROL + BIDI_CONTROL, many: CONTROL_BUT_LINE_BREAKS + BIDI_CONTROL };
const REFUSED_IN_WORDS: Record<Lines, string> = {
  one: 'control characters (U+0000-U+001F, U+007F-U+009F) and bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) are refused',
  many: 'control characters other than tab, line feed and carriage return (U+0000-U+0008, U+000B, U+000C, U+000E-U+001F, U+007F-U+009F) and bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) are refused',
};

/** The documented patterns: text without a refused character, and the same with a character that is not whitespace. */
export const textPatterns = {
  one: new RegExp(`^[^${REFUSED.one}]*$`),
  many: new RegExp(`^[^${REFUSED.many}]*$`),
  oneNotBlank: new RegExp(`^[^${REFUSED.one}]*[^\\s${REFUSED.one}][^${REFUSED.one}]*$`),
  manyNotBlank: new RegExp(`^[^${REFUSED.many}]*[^\\s${REFUSED.many}][^${REFUSED.many}]*$`),
} as const;

const refusedCharacter: Record<Lines, RegExp> = { one: new RegExp(`[${REFUSED.one}]`), many: new RegExp(`[${REFUSED.many}]`) };

/** Why a text is refused (the documented pattern alone decides; this only explains), else undefined. */
function textProblem(value: string, lines: Lines, blank: 'allowed' | 'refused'): string | undefined {
  const refused = refusedCharacter[lines].exec(value)?.[0];
  if (refused !== undefined) {
    const codePoint = `U+${refused.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    return `Must not contain ${codePoint}: ${REFUSED_IN_WORDS[lines]}`;
  }
  if (blank === 'refused' && !/\S/.test(value)) return 'Must not be blank';
  return undefined;
}

/** A string of at most `max` characters (as sent) checked by textProblem, documented by its exact pattern. */
function checkedText(max: number, lines: Lines, blank: 'allowed' | 'refused') {
  const pattern = textPatterns[`${lines}${blank === 'refused' ? 'NotBlank' : ''}` as const];
  return z
    .string()
    .max(max)
    .superRefine((value, ctx) => {
      const problem = textProblem(value, lines, blank);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .openapi({ pattern: pattern.source });
}

/** Free text a client filters by (the value of a trimmedText field): 1 to `max` characters, one line, not trimmed. */
export function plainText(max: number) {
  return checkedText(max, 'one', 'allowed').min(1);
}

/**
 * Text stored trimmed, not blank: one line (names, titles, symbols, ids) unless `lines` is 'many'
 * (notes). The bounds apply to the value as sent and the pattern states exactly what passes (JS `\s`
 * is exactly what `trim()` removes).
 */
export function trimmedText(max: number, lines: Lines = 'one') {
  return checkedText(max, lines, 'refused').trim();
}

/** Text that may be empty, not trimmed: one-line labels, or descriptions spanning lines. */
export function optionalText(max: number, lines: Lines) {
  return checkedText(max, lines, 'allowed');
}

/**
 * Every email address the API takes: domain/email.ts's one rule (zod's email rule within RFC 5321),
 * documented as `format: email` plus that exact pattern, which together state precisely what passes.
 */
export const emailAddress = z
  .string()
  .max(MAX_EMAIL_LENGTH)
  .refine(isEmailAddress, 'Must be an email address such as jane@example.com')
  .openapi({ format: 'email', pattern: EMAIL_PATTERN.source, example: 'jane@example.com' });

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
