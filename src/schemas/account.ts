import { z } from '@hono/zod-openapi';
import { roles } from '../db/schema';
import { tenantBriefSchema } from './common';

/** The signed-in account (`GET /user/me`) with the tenants it belongs to. */
export const currentAccountSchema = z
  .strictObject({
    id: z.string(),
    username: z.string(),
    email: z.string(),
    memberships: z.array(z.strictObject({ tenant: tenantBriefSchema, role: z.enum(roles) })),
  })
  .openapi('CurrentAccount');

export type CurrentAccountView = z.infer<typeof currentAccountSchema>;
