import { regexes } from 'zod/v4/core';

/**
 * The one rule for every email address the API takes (customers, their filter, invitations), also
 * checked by the CMS before sending (docs/decisions/0039-one-email-rule.md): zod's own email
 * rule (`z.email()`'s default, maintained with zod), documented as the `pattern` next to
 * `format: email`. Quoted local parts, IP literals and non-ASCII addresses are refused.
 */
export const EMAIL_PATTERN = regexes.email;

/** RFC 5321's longest forward path (256 octets) less its angle brackets. */
export const MAX_EMAIL_LENGTH = 254;

/**
 * A domain label ending in `-`: the one thing zod's rule lets through that RFC 5321 (and so
 * `format: email`) refuses (its sub-domain ends with a letter or digit). Refused too, so the pattern
 * and the format state the same set.
 */
const LABEL_ENDING_IN_HYPHEN = /-(?:\.|$)/;

/** The rule without the length, which is checked (and reported) on its own as `maxLength`. */
export function isEmailAddress(value: string): boolean {
  return EMAIL_PATTERN.test(value) && !LABEL_ENDING_IN_HYPHEN.test(value.slice(value.indexOf('@')));
}
