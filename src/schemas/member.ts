import { z } from '@hono/zod-openapi';
import { membershipStatuses, roles } from '../db/schema';
import { dateTime, emailAddress } from './common';

/**
 * A person's membership of a tenant. `id` is the membership id; `user_id` is the account id, null
 * (as is `username`) while an invitation waits for its first sign-in.
 */
export const memberSchema = z
  .strictObject({
    id: z.string(),
    user_id: z.string().nullable(),
    email: z.string(),
    username: z.string().nullable(),
    role: z.enum(roles),
    status: z.enum(membershipStatuses),
    created_at: dateTime,
  })
  .openapi('Member');

export type MemberView = z.infer<typeof memberSchema>;

export const inviteMemberBodySchema = z
  .strictObject({
    email: emailAddress,
    role: z.enum(roles),
  })
  .openapi('InviteMemberBody');

export const changeMemberRoleBodySchema = z.strictObject({ role: z.enum(roles) }).openapi('ChangeMemberRoleBody');
