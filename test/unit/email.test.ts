import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMAIL_PATTERN, isEmailAddress } from '../../src/domain/email';
import { resolverOf, violations, type JsonSchema } from '../fuzz/support/json-schema';

/** The one email rule against what the document states: `format: email` (RFC 5321 `Mailbox`) plus the pattern. */
const documented: JsonSchema = { type: 'string', format: 'email', pattern: EMAIL_PATTERN.source };
const allowedByDocument = (value: string) => violations(documented, value, resolverOf({})).length === 0;

describe('the email rule (src/domain/email.ts)', () => {
  it('takes exactly what the document states, for addresses the pattern generates and for any string', () => {
    const candidates = fc.oneof(fc.stringMatching(EMAIL_PATTERN), fc.emailAddress(), fc.string());
    fc.assert(fc.property(candidates, (value) => isEmailAddress(value) === allowedByDocument(value)), { numRuns: 5000, seed: 27 });
  });

  it('refuses a domain label ending in "-", which zod\'s pattern alone lets through', () => {
    expect(EMAIL_PATTERN.test('jane@example-.com')).toBe(true);
    expect(isEmailAddress('jane@example-.com')).toBe(false);
    expect(isEmailAddress('jane@ex-ample.com')).toBe(true);
  });
});
