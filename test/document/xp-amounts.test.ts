import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_XP_AMOUNT } from '../../src/domain/ledger';
import { xpAmountInput, xpAmountPatterns } from '../../src/schemas/common';
import { objectComponent } from '../support/openapi';

/**
 * XP amounts in bodies are strings (CONTRACT.md). The documented `pattern` is the whole rule: a
 * value is accepted exactly when it is a string the pattern matches, and then means that number.
 */
const kinds = [
  ['positive', (n: number) => n >= 1 && n <= MAX_XP_AMOUNT],
  ['nonZero', (n: number) => n !== 0 && Math.abs(n) <= MAX_XP_AMOUNT],
] as const;

const candidates = fc.oneof(
  fc.integer({ min: -2 * MAX_XP_AMOUNT, max: 2 * MAX_XP_AMOUNT }).map(String),
  fc.integer({ min: -20, max: 20 }).map(String),
  fc.stringMatching(/^-?0*\d{0,11}(\.\d{0,3})?(e\d)?$/),
  fc.string({ maxLength: 12 }),
);

describe('XP amount inputs', () => {
  for (const [kind, inRange] of kinds) {
    it(`${kind}: accepted exactly when the documented pattern matches, yielding that number`, () => {
      const schema = xpAmountInput(kind);
      fc.assert(
        fc.property(candidates, (value) => {
          const parsed = schema.safeParse(value);
          expect(parsed.success).toBe(xpAmountPatterns[kind].test(value));
          if (parsed.success) expect(String(parsed.data)).toBe(value);
        }),
        { seed: 9, numRuns: 2000 },
      );
    });

    it(`${kind}: the pattern is the range, with MAX_XP_AMOUNT = ${MAX_XP_AMOUNT} as its edge`, () => {
      fc.assert(
        fc.property(fc.integer({ min: -2 * MAX_XP_AMOUNT, max: 2 * MAX_XP_AMOUNT }), (n) => {
          expect(xpAmountPatterns[kind].test(String(n))).toBe(inRange(n));
        }),
        { seed: 9, numRuns: 2000 },
      );
      for (const edge of [MAX_XP_AMOUNT, MAX_XP_AMOUNT + 1, 1, 0, -1, -MAX_XP_AMOUNT, -MAX_XP_AMOUNT - 1]) {
        expect(xpAmountPatterns[kind].test(String(edge)), String(edge)).toBe(inRange(edge));
      }
    });

    it(`${kind}: refuses JSON numbers, leading zeros, signs and blanks with a message saying what to send`, () => {
      const schema = xpAmountInput(kind);
      const messageOf = (value: unknown) => schema.safeParse(value).error?.issues[0]?.message;
      expect(messageOf(150)).toBe('Send the amount as a string, e.g. "150"');
      expect(messageOf('0150')).toBe('Write the number without leading zeros');
      expect(messageOf('1.5')).toMatch(/whole number/);
      expect(messageOf('')).toMatch(/whole number/);
      expect(messageOf('+5')).toMatch(/whole number/);
      expect(messageOf(String(MAX_XP_AMOUNT + 1))).toMatch(String(MAX_XP_AMOUNT));
    });
  }

  it('the served document carries these patterns and the bounds as x-minimum / x-maximum', async () => {
    const earn = (await objectComponent('EarnXpBody')).properties.amount;
    expect(earn).toMatchObject({ type: 'string', pattern: xpAmountPatterns.positive.source, 'x-minimum': 1, 'x-maximum': MAX_XP_AMOUNT });
    expect((await objectComponent('CreateRewardBody')).properties.xp_cost).toMatchObject({ type: 'string', pattern: xpAmountPatterns.positive.source });
    const adjustment = (await objectComponent('XpAdjustmentBody')).properties.amount;
    expect(adjustment).toMatchObject({ type: 'string', pattern: xpAmountPatterns.nonZero.source, 'x-minimum': -MAX_XP_AMOUNT });
  });
});
