import { applyD1Migrations, env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/client';
import type { OnchainOperationKind } from '../../src/db/schema';
import { failedStatements, runBatch, succeededStatements } from '../../src/data/settlement-outcomes';
import { ApiError } from '../../src/lib/errors';
import { newId } from '../../src/lib/ids';
import { adjustXp } from '../../src/services/ledger';
import { forTenant, onShard, runContext } from '../../src/services/context';
import { reverseCredit } from '../../src/services/reversals';
import { expectLotInvariant } from '../support/lot-invariant';

/**
 * Migrations 0019..latest on a database in use (docs/POINTS.md, "Migration"): customers are built
 * under the schema before lots (migrations/shard up to 0018: the single database's history, which
 * every shard carries on) in a database of their own (TEST_MIGRATION_DB, vitest.config.mts), with
 * balances, lifetime XP, tiers, credits still waiting for their mint and debits still reserved;
 * then the rest is applied. Nothing a customer sees may
 * move, and the lots must add up exactly: one active lot per balance, one pending lot per waiting
 * credit. Then the old rows live on under the new triggers: a waiting mint settles or fails, a
 * reserved debit fails and comes back, a debit spends the migrated balance.
 */

const d1 = () => env.TEST_MIGRATION_DB;
/** The first migration of the point lifecycle: everything before it is the old schema. */
const FIRST_LOT_MIGRATION = '0019_';
const TENANT = 'ten_migration';
const MANY = 300;

type Customer = { id: string; xp_balance: number; lifetime_xp: number; tier_id: string | null };

async function exec(query: string, ...values: unknown[]) {
  return d1().prepare(query).bind(...values).run();
}

/** Every customer's balance, lifetime XP and tier (the tier_placements view, as every trigger reads it). */
async function customersSeen(): Promise<Customer[]> {
  const { results } = await d1()
    .prepare(`SELECT c.id, c.xp_balance, c.lifetime_xp, p.tier_id FROM customers c
      LEFT JOIN tier_placements p ON p.tenant_id = c.tenant_id AND p.min_xp_threshold <= c.lifetime_xp AND (p.below_lifetime_xp IS NULL OR c.lifetime_xp < p.below_lifetime_xp)
      WHERE c.tenant_id = ? ORDER BY c.id`)
    .bind(TENANT)
    .all<Customer>();
  return results;
}

async function lotsOf(userId: string) {
  const { results } = await d1()
    .prepare('SELECT internal_transaction_id, amount, remaining, status, expires_at, activated_at FROM point_lots WHERE user_id = ? ORDER BY amount, internal_transaction_id')
    .bind(userId)
    .all<{ internal_transaction_id: string | null; amount: number; remaining: number; status: string; expires_at: string | null; activated_at: string | null }>();
  return results;
}

async function balanceOf(userId: string) {
  return d1().prepare('SELECT xp_balance, lifetime_xp FROM customers WHERE id = ?').bind(userId).first<{ xp_balance: number; lifetime_xp: number }>();
}

/** A ledger entry under the old schema, its balance moved by the caller as the old code did. */
async function entry(userId: string, type: string, amount: number, status: string, redemptionId: string | null = null) {
  const id = newId('itx');
  await exec('INSERT INTO internal_transactions (id, tenant_id, user_id, type, amount, status, redemption_id) VALUES (?, ?, ?, ?, ?, ?, ?)', id, TENANT, userId, type, amount, status, redemptionId);
  return id;
}

async function customer(id: string, balance: number, lifetime: number) {
  await exec('INSERT INTO customers (id, tenant_id, external_id, xp_balance, lifetime_xp) VALUES (?, ?, ?, ?, ?)', id, TENANT, `ext-${id}`, balance, lifetime);
}

const operation = (kind: OnchainOperationKind, internalTransactionId: string) => ({ id: newId('op'), tenantId: TENANT, kind, onchainAssetId: 'ast_none', internalTransactionId });
/** TEST_MIGRATION_DB as the tenant's shard: the services run on it as on any shard. */
const ctx = () => forTenant(onShard(runContext(env), { name: 'SHARD_0', d1: d1() }, createDatabase(d1())), TENANT);

/** Ids of the rows made under the old schema that the checks name. */
const made = { mintWaiting: '', mintBroadcast: '', reservedRedeem: '', pendingDebit: '', oldCredit: '', debits: [] as string[] };
let before: Customer[];

beforeAll(async () => {
  const old = env.TEST_SHARD_MIGRATIONS.filter((migration) => migration.name < FIRST_LOT_MIGRATION);
  expect(old.length).toBeLessThan(env.TEST_SHARD_MIGRATIONS.length);
  await applyD1Migrations(d1(), old);
  await exec("INSERT INTO tenants (id, name, slug) VALUES (?, 'Migration', 'migration')", TENANT);
  await exec("INSERT INTO tier_rules (id, tenant_id, tier_name, min_xp_threshold, created_at) VALUES ('tier_silver', ?, 'Silver', 100, '2024-01-01T00:00:00.000Z')", TENANT);
  await exec("INSERT INTO tier_rules (id, tenant_id, tier_name, min_xp_threshold, created_at) VALUES ('tier_gold', ?, 'Gold', 500, '2024-01-01T00:00:00.000Z')", TENANT);

  // Many customers, set-based: balance, lifetime and a ledger that sums to both (an earn of the
  // lifetime, a completed spend of the difference), some with nothing at all.
  await exec(
    `INSERT INTO customers (id, tenant_id, external_id, xp_balance, lifetime_xp)
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${MANY})
      SELECT printf('cus_many_%04d', i), ?1, printf('ext-many-%04d', i), b, b + CASE WHEN i % 20 = 0 THEN 0 ELSE (i * 13) % 300 END
      FROM (SELECT i, CASE WHEN i % 10 = 0 THEN 0 ELSE (i * 37) % 700 END AS b FROM n)`,
    TENANT,
  );
  await exec(
    `INSERT INTO internal_transactions (id, tenant_id, user_id, type, amount, status)
      SELECT 'itx_earn_' || id, tenant_id, id, 'xp_earn', lifetime_xp, 'completed' FROM customers WHERE tenant_id = ?1 AND lifetime_xp > 0`,
    TENANT,
  );
  await exec(
    `INSERT INTO internal_transactions (id, tenant_id, user_id, type, amount, status)
      SELECT 'itx_spend_' || id, tenant_id, id, 'xp_admin_adjust', xp_balance - lifetime_xp, 'completed' FROM customers WHERE tenant_id = ?1 AND lifetime_xp > xp_balance`,
    TENANT,
  );

  // A credit waiting for its mint (initialized) and one already broadcast (pending) beside 100 XP.
  await customer('cus_minting', 100, 100);
  made.oldCredit = await entry('cus_minting', 'xp_earn', 100, 'completed');
  made.mintWaiting = await entry('cus_minting', 'xp_earn', 50, 'initialized');
  made.mintBroadcast = await entry('cus_minting', 'xp_bonus', 30, 'pending');
  // A redemption's debit still reserved (initialized) and a debit whose burn is under way (pending).
  await customer('cus_reserved', 40, 100);
  await entry('cus_reserved', 'xp_earn', 100, 'completed');
  await exec("INSERT INTO rewards (id, tenant_id, title, xp_cost, status) VALUES ('rwd_old', ?, 'Old reward', 60, 'active')", TENANT);
  await exec("INSERT INTO redemptions (id, tenant_id, user_id, reward_id, status, xp_spent) VALUES ('red_old', ?, 'cus_reserved', 'rwd_old', 'initialized', 60)", TENANT);
  made.reservedRedeem = await entry('cus_reserved', 'xp_redeem', -60, 'initialized', 'red_old');
  await customer('cus_burning', 0, 20);
  await entry('cus_burning', 'xp_earn', 20, 'completed');
  made.pendingDebit = await entry('cus_burning', 'xp_admin_adjust', -20, 'pending');

  const { results } = await d1().prepare('SELECT id FROM internal_transactions WHERE tenant_id = ? AND amount < 0').bind(TENANT).all<{ id: string }>();
  made.debits = results.map((row) => row.id);
  before = await customersSeen();

  await applyD1Migrations(d1(), env.TEST_SHARD_MIGRATIONS);
});

describe('migrating a database in use to point lots (0019..latest)', () => {
  it('keeps every balance, lifetime XP and tier', async () => {
    expect(before).toHaveLength(MANY + 3);
    expect(before.filter((c) => c.tier_id === 'tier_gold').length).toBeGreaterThan(0);
    expect(await customersSeen()).toEqual(before);
  });

  it('makes each balance one active lot without expiry, and nothing of a customer without one', async () => {
    const { results } = await d1()
      .prepare(`SELECT c.id, c.xp_balance, count(l.id) AS lots, coalesce(sum(l.amount), 0) AS amount, coalesce(sum(l.remaining), 0) AS remaining,
          coalesce(max(l.id IS NOT NULL AND (l.expires_at IS NOT NULL OR l.internal_transaction_id IS NOT NULL OR l.activated_at IS NULL)), 0) AS odd
        FROM customers c LEFT JOIN point_lots l ON l.user_id = c.id AND l.status = 'active' WHERE c.tenant_id = ? GROUP BY c.id`)
      .bind(TENANT)
      .all<{ id: string; xp_balance: number; lots: number; amount: number; remaining: number; odd: number }>();
    const wrong = results.filter((c) => c.lots !== (c.xp_balance > 0 ? 1 : 0) || c.amount !== c.xp_balance || c.remaining !== c.xp_balance || c.odd !== 0);
    expect(wrong).toEqual([]);
    expect(results.filter((c) => c.xp_balance === 0).length).toBeGreaterThan(MANY / 20);
  });

  it('makes each credit waiting for its mint a pending lot of its amount, which no activation job takes', async () => {
    const lots = await lotsOf('cus_minting');
    expect(lots).toEqual([
      { internal_transaction_id: made.mintBroadcast, amount: 30, remaining: 30, status: 'pending', expires_at: null, activated_at: expect.any(String) },
      { internal_transaction_id: made.mintWaiting, amount: 50, remaining: 50, status: 'pending', expires_at: null, activated_at: expect.any(String) },
      { internal_transaction_id: null, amount: 100, remaining: 100, status: 'active', expires_at: null, activated_at: expect.any(String) },
    ]);
    // Reserved debits made no lot and took from none: the balance is already net of them.
    expect(await lotsOf('cus_reserved')).toEqual([{ internal_transaction_id: null, amount: 40, remaining: 40, status: 'active', expires_at: null, activated_at: expect.any(String) }]);
    expect(await lotsOf('cus_burning')).toEqual([]);
    await expectLotInvariant(TENANT, { d1: d1(), unbacked: made.debits });
  });

  it('then lives on under the new triggers: mints settle or fail, a reserved debit fails and comes back, a debit spends the old balance', async () => {
    const now = new Date().toISOString();
    await runBatch(createDatabase(d1()), succeededStatements(createDatabase(d1()), operation('mint', made.mintWaiting), undefined, now));
    await runBatch(createDatabase(d1()), failedStatements(createDatabase(d1()), operation('mint', made.mintBroadcast), undefined, 'reverted', now));
    expect(await balanceOf('cus_minting')).toEqual({ xp_balance: 150, lifetime_xp: 150 });
    expect((await lotsOf('cus_minting')).map((lot) => [lot.amount, lot.remaining, lot.status])).toEqual([
      [30, 0, 'reversed'],
      [50, 50, 'active'],
      [100, 100, 'active'],
    ]);

    await runBatch(createDatabase(d1()), failedStatements(createDatabase(d1()), operation('burn', made.reservedRedeem), undefined, 'reverted', now));
    expect(await balanceOf('cus_reserved')).toEqual({ xp_balance: 100, lifetime_xp: 100 });
    // What the debit took before lots existed comes back as a lot of its own, without expiry.
    expect((await lotsOf('cus_reserved')).map((lot) => [lot.internal_transaction_id, lot.amount, lot.remaining, lot.status, lot.expires_at])).toEqual([
      [null, 40, 40, 'active', null],
      [null, 60, 60, 'active', null],
    ]);
    await runBatch(createDatabase(d1()), succeededStatements(createDatabase(d1()), operation('burn', made.pendingDebit), undefined, now));
    expect(await balanceOf('cus_burning')).toEqual({ xp_balance: 0, lifetime_xp: 20 });

    await adjustXp(ctx(), { userId: 'cus_minting', amount: -120, notes: 'after the migration' });
    expect(await balanceOf('cus_minting')).toMatchObject({ xp_balance: 30 });
    // A credit older than lots has no lot of its own to take back.
    await expect(reverseCredit(ctx(), made.oldCredit, {})).rejects.toMatchObject({ code: 'NOT_REVERSIBLE' } satisfies Partial<ApiError>);
    await expectLotInvariant(TENANT, { d1: d1(), unbacked: made.debits });
  });
});
