/**
 * The API's stated rules for request bodies, checked before sending (the API checks again and its
 * field errors show the same way). The limits are the OpenAPI document's (sdk/openapi.json);
 * rules.test.ts fails when the document's limits change and these do not.
 */
import { isEmailAddress } from '../../../src/domain/email';
import type { FieldErrors } from './forms';

export const limits = {
  tenantName: 100,
  slug: { min: 3, max: 63, pattern: /^[a-z0-9]+(?:-[a-z0-9]+)*$/ },
  tierName: 100,
  benefits: 2000,
  /** A hex color or empty: anything else would be CSS a viewer's browser acts on (a `url(...)` it fetches). */
  color: /^(?:#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8}))?$/,
  icon: { max: 2048, pattern: /^(?:https:\/\/[^\s\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+)?$/ },
  rewardTitle: 200,
  description: 2000,
  xpCost: /^(?:[1-9]\d{0,8}|1000000000)$/,
  xpAdjustment: /^-?(?:[1-9]\d{0,8}|1000000000)$/,
  notes: 1000,
  stockMax: 1_000_000_000,
  apiKeyName: 100,
  apiKeyLabel: 100,
  attributeKey: 200,
  cohortName: 200,
  email: 254,
  webhookUrl: 2048,
  webhookDescription: 500,
  webhookEventTypes: 13,
  assetName: 100,
  assetSymbol: 32,
  assetKey: /^[a-z0-9_]{1,64}$/,
  assetDecimals: 36,
  assetAddress: /^0x[0-9a-fA-F]{40}$/,
  cohortPredicates: 20,
  ruleName: 200,
  /** A whole XP amount of a rule (its fixed effect, a limit's max XP, the budget): 1 to 1,000,000,000. */
  xpAmount: /^(?:[1-9]\d{0,8}|1000000000)$/,
  rulePriority: 1_000_000,
  ruleMaxTimes: 1_000_000_000,
  /** A tier multiplier's factor and a per-unit rate: decimal strings (FACTOR_DECIMALS, RATE_DECIMALS of src/domain/earning-limits.ts). */
  factor: /^(?:0|[1-9]\d{0,8})(?:\.\d{1,4})?$/,
  rate: /^(?:0|[1-9]\d{0,8})(?:\.\d{1,6})?$/,
} as const;

type Check = [path: string, failed: boolean, message: string];

/** The first failing message per path. */
export function collect(checks: Check[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const [path, failed, message] of checks) if (failed && !(path in errors)) errors[path] = message;
  return errors;
}

export const blank = (value: string): boolean => value.trim() === '';
export const tooLong = (value: string, max: number): boolean => value.length > max;
export const required = (path: string, value: string): Check => [path, blank(value), 'Required.'];
export const maxLength = (path: string, value: string, max: number): Check => [path, tooLong(value, max), `At most ${max} characters.`];

export function isWholeNumber(value: string): boolean {
  return /^\d+$/.test(value.trim());
}

/** An email field's check as the API makes it: at most `limits.email` characters and the Worker's one email rule (imported, not copied). */
export const emailAddress = (path: string, value: string): Check => [path, value.length > limits.email || !isEmailAddress(value), 'An email address.'];
