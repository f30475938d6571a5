import { env } from 'cloudflare:test';
import { shardD1 } from '../support/world';

/**
 * A tenant's bulk data written straight into D1 by SQL (recursive CTEs), so a test can hold two
 * tenants of different sizes: `customers` customers (one in ten suspended, five countries), three
 * ledger entries each and one redemption per ten customers of `rewardId`. The triggers of the
 * migrations run as for any write (positions, counts, cohort memberships).
 */
export async function seedTenantData(tenantId: string, customers: number, rewardId: string): Promise<void> {
  const numbers = (count: number) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})`;
  const at = (step: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', printf('+%d seconds', ${step}))`;
  const customerId = (index: string) => `printf('cus_%s_%06d', ?1, ${index})`;
  await shardD1(tenantId).batch([
    shardD1(tenantId).prepare(
      `${numbers(customers)} INSERT INTO customers (id, tenant_id, external_id, email, username, country_code, status, xp_balance, lifetime_xp, created_at, updated_at)
       SELECT ${customerId('i')}, ?1, printf('ext-%06d', i), printf('fan%d@example.com', i), printf('fan%d', i),
         CASE i % 5 WHEN 0 THEN 'US' WHEN 1 THEN 'DE' WHEN 2 THEN 'FR' WHEN 3 THEN 'JP' ELSE 'BR' END,
         CASE i % 10 WHEN 0 THEN 'suspended' ELSE 'active' END, 300, 300, ${at('i * 60')}, ${at('i * 60')} FROM n`,
    ).bind(tenantId),
    shardD1(tenantId).prepare(
      `${numbers(customers * 3)} INSERT INTO internal_transactions (id, tenant_id, user_id, type, amount, status, created_at, updated_at)
       SELECT printf('itx_%s_%07d', ?1, i), ?1, ${customerId('1 + i % ?2')},
         CASE i % 3 WHEN 0 THEN 'xp_earn' WHEN 1 THEN 'xp_bonus' ELSE 'xp_admin_adjust' END, 100,
         CASE i % 50 WHEN 0 THEN 'failed' ELSE 'completed' END, ${at('i * 20')}, ${at('i * 20')} FROM n`,
    ).bind(tenantId, customers),
    shardD1(tenantId).prepare(
      `${numbers(customers / 10)} INSERT INTO redemptions (id, tenant_id, user_id, reward_id, status, xp_spent, created_at, updated_at)
       SELECT printf('red_%s_%06d', ?1, i), ?1, ${customerId('i * 7 % ?2 + 1')}, ?3, 'completed', 1, ${at('i * 600')}, ${at('i * 600')} FROM n`,
    ).bind(tenantId, customers, rewardId),
  ]);
}
