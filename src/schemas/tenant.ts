import { z } from '@hono/zod-openapi';
import { dateTime, trimmedText } from './common';

/** Lowercase kebab case, 3-63 characters (fits a DNS label, so it can become a subdomain later). */
export const tenantSlug = z
  .string()
  .min(3)
  .max(63)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Use lowercase letters, digits and single hyphens (e.g. acme-coffee)')
  .openapi({ example: 'acme-coffee' });

export const createTenantBodySchema = z
  .strictObject({
    name: trimmedText(100).openapi({ example: 'Acme Coffee' }),
    slug: tenantSlug,
  })
  .openapi('CreateTenantBody');

export const tenantSchema = z
  .strictObject({ id: z.string(), name: z.string(), slug: z.string(), created_at: dateTime, updated_at: dateTime })
  .openapi('Tenant');

export type TenantView = z.infer<typeof tenantSchema>;
