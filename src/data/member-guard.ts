import type { RememberedMember } from './member-cache';

/**
 * "The membership is still exactly as remembered" in SQL (?1 membership, ?2 tenant, ?3 account,
 * ?4 role, ?5 account updated_at, ?6 tenant updated_at): active, same role, the account and tenant
 * not changed since (a sign-in that refreshes the email moves `updated_at`), and no invitation the
 * account's verified email could take (a sign-in would link it first).
 */
const STILL_AS_REMEMBERED = `(EXISTS (SELECT 1 FROM memberships m
    JOIN accounts a ON a.id = m.account_id
    JOIN tenants t ON t.id = m.tenant_id
    WHERE m.id = ?1 AND m.tenant_id = ?2 AND m.account_id = ?3 AND m.status = 'active' AND m.role = ?4
      AND a.updated_at = ?5 AND t.updated_at = ?6)
  AND NOT EXISTS (SELECT 1 FROM accounts a JOIN memberships i ON i.email = a.email
    WHERE a.id = ?3 AND a.email_verified = 1 AND i.account_id IS NULL
      AND i.tenant_id NOT IN (SELECT own.tenant_id FROM memberships own WHERE own.account_id = ?3)))`;

/**
 * Whether the remembered membership still holds, read in the directory (where memberships live)
 * while the route reads the tenant's shard: the two round trips overlap.
 */
export async function memberStillAsRemembered(directory: D1Database, { account, membership, tenant }: RememberedMember): Promise<boolean> {
  const params = [membership.id, tenant.id, account.id, membership.role, account.updatedAt, tenant.updatedAt];
  const row = await directory.prepare(`SELECT ${STILL_AS_REMEMBERED} AS allowed`).bind(...params).first<{ allowed: number }>();
  return row?.allowed === 1;
}
