import { describe, expect, it } from 'vitest';
import { describeDuration, durationDraft, durationValue } from './duration';

describe('program settings durations', () => {
  it('a stored value comes back unchanged, one of several parts as ISO 8601 text (never converted between units)', () => {
    for (const value of [null, 'PT10S', 'PT90M', 'PT36H', 'P14D', 'P2W', 'P18M', 'P10Y', 'P1DT12H', 'P1Y6M']) {
      expect(durationValue(durationDraft(value))).toEqual({ ok: true, value });
    }
    expect(durationDraft('P1DT12H')).toEqual({ unit: 'iso', amount: 'P1DT12H' });
    expect(durationDraft('P18M')).toEqual({ unit: 'months', amount: '18' });
    expect(durationDraft('PT18M')).toEqual({ unit: 'minutes', amount: '18' });
  });

  it('refuses what the API would: not a whole number from 1, or outside PT10S to P10Y', () => {
    expect(durationValue({ unit: 'days', amount: '' })).toEqual({ ok: false, message: 'A whole number from 1.' });
    expect(durationValue({ unit: 'days', amount: '1.5' })).toEqual({ ok: false, message: 'A whole number from 1.' });
    expect(durationValue({ unit: 'seconds', amount: '9' })).toEqual({ ok: false, message: 'From 10 seconds to 10 years.' });
    expect(durationValue({ unit: 'years', amount: '11' })).toEqual({ ok: false, message: 'From 10 seconds to 10 years.' });
    expect(durationValue({ unit: 'iso', amount: '30 days' })).toMatchObject({ ok: false });
  });

  it('reads as words with the ISO value', () => {
    expect(describeDuration('P1Y', 'Off')).toBe('1 year (P1Y)');
    expect(describeDuration('PT36H', 'Off')).toBe('36 hours (PT36H)');
    expect(describeDuration(null, 'Off')).toBe('Off');
  });
});
