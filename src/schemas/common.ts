import { z } from '@hono/zod-openapi';

export const dateTime = z.string().openapi({ format: 'date-time', example: '2026-11-21T12:00:00.000Z' });

/** Any JSON value (spec: "any JSON"). */
export const anyJson = z.unknown().openapi({ type: 'object', description: 'Any JSON value' });

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
