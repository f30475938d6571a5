import { z } from 'zod';

/**
 * Building blocks of the environment schema (src/config.ts). Messages name the variable and never
 * repeat its value: vars hold secrets and RPC URLs that may carry provider keys.
 */

/** Blank counts as unset: wrangler and dashboards keep empty strings for cleared vars. */
export const envText = z.preprocess((value) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined), z.string().optional());

export const envWholeNumber = (name: string, bounds: { min: number; max: number; fallback: number }) =>
  envText
    .refine(
      (value) => value === undefined || (/^\d{1,15}$/.test(value) && Number(value) >= bounds.min && Number(value) <= bounds.max),
      `${name} must be a whole number from ${bounds.min} to ${bounds.max}`,
    )
    .transform((value) => (value === undefined ? bounds.fallback : Number(value)));

/**
 * An amount of a chain's native token written in whole units with up to 18 decimals (e.g. "0.05"),
 * as wei.
 */
export const envEther = (name: string, fallback: string) =>
  envText
    .refine((value) => value === undefined || /^\d{1,12}(\.\d{1,18})?$/.test(value), `${name} must be an amount such as 0.05 (whole units of the native token, up to 18 decimals)`)
    .transform((value) => {
      const [whole = '0', fraction = ''] = (value ?? fallback).split('.');
      return BigInt(whole) * 10n ** 18n + BigInt(fraction.padEnd(18, '0'));
    });

/** What a Workers Rate Limiting binding allows: `limit` requests per `period` seconds. */
export type RateLimitQuota = { limit: number; period: 10 | 60 };

/**
 * A rate limit stated as `limit/period` (e.g. "600/60"), the same numbers as the `simple` of the
 * binding it describes: the binding cannot be asked for its own, and the RateLimit headers must not
 * promise what it does not enforce. Required: without it no honest header can be sent.
 */
export const envRateLimit = (name: string, binding: string) =>
  envText
    .refine((value) => value !== undefined, `${name} is not set: it states the limit of the ${binding} binding as limit/period, e.g. 600/60`)
    .refine(
      (value) => value === undefined || /^[1-9]\d{0,8}\/(10|60)$/.test(value),
      `${name} must be limit/period as in the ${binding} binding's simple = { limit, period }, e.g. 600/60 (period 10 or 60)`,
    )
    .transform((value): RateLimitQuota => {
      const [limit, period] = (value ?? '').split('/').map(Number);
      return { limit: limit ?? 0, period: period === 10 ? 10 : 60 };
    });
