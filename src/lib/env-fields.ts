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
      (value) => value === undefined || (/^\d{1,9}$/.test(value) && Number(value) >= bounds.min && Number(value) <= bounds.max),
      `${name} must be a whole number from ${bounds.min} to ${bounds.max}`,
    )
    .transform((value) => (value === undefined ? bounds.fallback : Number(value)));
