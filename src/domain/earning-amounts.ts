import { FACTOR_DECIMALS } from './earning-limits';
import type { EventProperties, RuleEffect } from './earning-rules';
import { MAX_XP_AMOUNT } from './ledger';

/**
 * What a rule's effect gives, computed exactly (docs/RULES.md, "Amounts"): decimals are read as
 * scaled integers, never as floats, so "2 XP per dollar" on $45.99 is 91, not 91.97999... floored
 * by luck. One effect gives at most MAX_XP_AMOUNT.
 */

/** `digits` with its decimal point moved `scale` places right, as an integer (`"45.99"`, 2 -> 4599n). */
function scaled(decimal: string, scale: number): bigint {
  const [whole = '0', fraction = ''] = decimal.split('.');
  return BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
}

const EXPONENT_FORM = /^(\d+)(?:\.(\d+))?e([+-]\d+)$/;

/**
 * A non-negative property number as a plain decimal string (no exponent), or undefined: the
 * shortest decimal that reads back as the same double, i.e. what the client wrote (0.29, where
 * `toFixed(20)` would give the double's binary expansion 0.28999999999999998002, floored to 28).
 */
function plainDecimal(value: number): string | undefined {
  if (!Number.isFinite(value) || value < 0) return undefined;
  const text = String(value);
  const exponent = EXPONENT_FORM.exec(text);
  if (!exponent) return text;
  const [, whole = '', fraction = '', power = '0'] = exponent;
  const digits = whole + fraction;
  const point = whole.length + Number(power);
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  return point >= digits.length ? digits + '0'.repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
}

const fractionDigits = (decimal: string) => decimal.split('.')[1]?.length ?? 0;

/**
 * floor(property / unit x xp_per_unit): 0 when the property is missing, not a number, or negative.
 * Values as sent are decimal strings (`xp_per_unit`, `unit`) or the JSON number of the event.
 */
function perUnit(effect: Extract<RuleEffect, { kind: 'per_unit' }>, properties: EventProperties): number {
  const property = properties[effect.property];
  const value = typeof property === 'number' ? plainDecimal(Number(property.toPrecision(15))) : undefined;
  if (value === undefined) return 0;
  const scale = Math.max(fractionDigits(value), fractionDigits(effect.xp_per_unit), fractionDigits(effect.unit));
  const numerator = scaled(value, scale) * scaled(effect.xp_per_unit, scale);
  const denominator = scaled(effect.unit, scale) * 10n ** BigInt(scale);
  const amount = numerator / denominator;
  return amount > BigInt(MAX_XP_AMOUNT) ? MAX_XP_AMOUNT : Number(amount);
}

/** The XP of the effect before the tier multiplier and the caps (at most MAX_XP_AMOUNT). */
export function baseAmount(effect: RuleEffect, properties: EventProperties): number {
  return effect.kind === 'fixed' ? effect.amount : perUnit(effect, properties);
}

/** A multiplier's factor as an integer of 10^-FACTOR_DECIMALS (`"1.5"` -> 15000): SQL multiplies and floors in integers. */
export function scaledFactor(factor: string): number {
  return Number(scaled(factor, FACTOR_DECIMALS));
}

export const FACTOR_SCALE = 10 ** FACTOR_DECIMALS;
