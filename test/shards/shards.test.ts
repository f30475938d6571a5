import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { getTableColumns, getTableName, is } from 'drizzle-orm';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import * as shardSchema from '../../src/db/schema/shard';
import worker from '../../src/index';
import type { Bindings } from '../../src/env';
import { CUSTODIAL_RANGE_SIZE } from '../../src/domain/shards';
import { createdApiKeySchema } from '../../src/schemas/api-key';
import { currentAccountSchema } from '../../src/schemas/account';
import { customerSchema } from '../../src/schemas/customer';
import { tenantSchema } from '../../src/schemas/tenant';
import { deployReference, fundedRelayer } from '../support/chain';
import { callWorker, expectError, expectOk } from '../support/http';
import { gatewayRequest, portalRequest } from '../support/race';
import { shardBindings } from '../support/shards';
import { createPerson, type TestApiKey } from '../support/world';

/**
 * Tenants over two shards (docs/SCALING.md, decision 0109). The whole suite runs its tenants on both
 * shards (test/support/world.ts places them in turn); here the Worker's own placement decides, and
 * every request goes through the whole Worker.
 */
const send = (request: Request, runEnv: Bindings = env) => callWorker(request, runEnv);

type Owner = Awaited<ReturnType<typeof createPerson>>;
type Placed = { id: string; shard: string; key: TestApiKey };

const shardOf = async (tenantId: string) => (await env.DB.prepare('SELECT shard FROM tenants WHERE id = ?').bind(tenantId).first<{ shard: string }>())?.shard;

/** A tenant made through POST /tenants (placement decides its shard) with an API key made through the portal. */
async function placedTenant(owner: Owner, runEnv: Bindings = env): Promise<Placed> {
  const slug = `shard-${crypto.randomUUID().slice(0, 12)}`;
  const tenant = expectOk(await send(portalRequest(owner, 'POST', '/api/v1/tenants', { name: slug, slug }), runEnv), 201, tenantSchema);
  const created = expectOk(await send(portalRequest(owner, 'POST', `/api/v1/tenant/${tenant.id}/api-keys`, { name: 'shard test' }), runEnv), 201, createdApiKeySchema);
  const shard = await shardOf(tenant.id);
  if (shard === undefined) throw new Error('tenant not in the directory');
  return { id: tenant.id, shard, key: { id: created.id, keyId: created.key_id, secret: created.secret, tenantId: tenant.id } };
}

/** The Worker with new tenants pinned to one shard (requests of every tenant still find theirs). */
const pinnedTo = (shard: string) => ({ ...env, PINNED_SHARD: shard }) as Bindings;

/** One tenant on each shard, with a customer earning XP on each. */
async function tenantOnEachShard() {
  const owner = await createPerson('owner');
  const first = await placedTenant(owner, pinnedTo('SHARD_0'));
  const second = await placedTenant(owner, pinnedTo('SHARD_1'));
  for (const tenant of [first, second]) {
    const customer = expectOk(await send(await gatewayRequest(tenant.key, 'POST', '/api/v1/gateway/customers', { body: { external_id: 'ada', email: 'ada@example.com' } })), 201, customerSchema);
    const earned = await send(await gatewayRequest(tenant.key, 'POST', '/api/v1/gateway/xp', { body: { user_id: customer.id, type: 'xp_earn', amount: '10' } }));
    expect(earned.status, earned.text).toBe(201);
  }
  return { owner, first, second };
}

/** Every shard table holding a tenant column. */
const tenantTables = Object.values(shardSchema).flatMap((value) =>
  is(value, SQLiteTable) && Object.values(getTableColumns(value)).some((column) => column.name === 'tenant_id') ? [getTableName(value)] : [],
);

async function rowsOf(d1: D1Database, tenantId: string): Promise<Record<string, number>> {
  const counts = await d1.batch<{ n: number }>(tenantTables.map((table) => d1.prepare(`SELECT count(*) AS n FROM "${table}" WHERE tenant_id = ?`).bind(tenantId)));
  return Object.fromEntries(tenantTables.map((table, index) => [table, counts[index]?.results[0]?.n ?? 0]).filter(([, n]) => n !== 0));
}

describe('placement', () => {
  it('puts each new tenant on the shard with the fewest tenants', async () => {
    const owner = await createPerson('owner');
    for (let made = 0; made < 4; made += 1) {
      const before = new Map((await env.DB.prepare('SELECT shard, count(*) AS n FROM tenants GROUP BY shard').all<{ shard: string; n: number }>()).results.map((row) => [row.shard, row.n]));
      const fewest = Math.min(...shardBindings().map(({ name }) => before.get(name) ?? 0));
      const tenant = await placedTenant(owner);
      expect(before.get(tenant.shard) ?? 0).toBe(fewest);
    }
    const counts = (await env.DB.prepare('SELECT count(*) AS n FROM tenants GROUP BY shard').all<{ n: number }>()).results.map((row) => row.n);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
  });

  it('puts every new tenant on PINNED_SHARD when it is set, however full', async () => {
    const owner = await createPerson('owner');
    const [one, two] = [await placedTenant(owner, pinnedTo('SHARD_1')), await placedTenant(owner, pinnedTo('SHARD_1'))];
    expect([one.shard, two.shard]).toEqual(['SHARD_1', 'SHARD_1']);
  });
});

describe('a tenant lives in its shard alone', () => {
  it('has every row in its own shard and none in the other; its custodial wallets derive from its shard\'s range', async () => {
    const { first, second } = await tenantOnEachShard();
    expect([first.shard, second.shard]).toEqual(['SHARD_0', 'SHARD_1']);
    for (const tenant of [first, second]) {
      for (const { name, db } of shardBindings()) {
        const rows = await rowsOf(db, tenant.id);
        const copy = await db.prepare('SELECT count(*) AS n FROM tenants WHERE id = ?').bind(tenant.id).first<{ n: number }>();
        if (name === tenant.shard) {
          expect(Object.keys(rows)).toEqual(expect.arrayContaining(['customers', 'internal_wallets', 'internal_transactions', 'api_keys', 'memberships', 'audit_log']));
          expect(copy?.n).toBe(1);
        } else {
          expect(rows, `${tenant.id} in ${name}`).toEqual({});
          expect(copy?.n).toBe(0);
        }
      }
      const { db } = shardBindings().find(({ name }) => name === tenant.shard)!;
      const wallet = await db.prepare('SELECT derivation_index AS i FROM internal_wallets WHERE tenant_id = ?').bind(tenant.id).first<{ i: number }>();
      const start = Number(tenant.shard.slice('SHARD_'.length)) * CUSTODIAL_RANGE_SIZE;
      expect(wallet?.i).toBeGreaterThanOrEqual(start);
      expect(wallet?.i).toBeLessThan(start + CUSTODIAL_RANGE_SIZE);
    }
  });

  it('answers another shard\'s tenant 404 on both surfaces', async () => {
    const { first, second } = await tenantOnEachShard();
    const [customer] = (await shardBindings().find(({ name }) => name === second.shard)!.db.prepare('SELECT id FROM customers WHERE tenant_id = ?').bind(second.id).all<{ id: string }>()).results;
    expectError(await send(await gatewayRequest(first.key, 'GET', `/api/v1/gateway/customers/${customer!.id}`)), 404, 'NOT_FOUND');
    const stranger = await createPerson('stranger');
    const own = await placedTenant(stranger);
    expect(own.id).not.toBe(second.id);
    expectError(await send(portalRequest(stranger, 'GET', `/api/v1/tenant/${second.id}/customers`)), 404, 'NOT_FOUND');
    expectError(await send(portalRequest(stranger, 'GET', `/api/v1/tenant/${first.id}/customers`)), 404, 'NOT_FOUND');
  });

  it('lists the tenants of every shard in /user/me', async () => {
    const { owner, first, second } = await tenantOnEachShard();
    const me = expectOk(await send(portalRequest(owner, 'GET', '/api/v1/user/me')), 200, currentAccountSchema);
    expect(me.memberships.map((membership) => membership.tenant.id)).toEqual(expect.arrayContaining([first.id, second.id]));
  });
});

describe('a contract is one tenant\'s across shards', () => {
  it('refuses a contract registered by a tenant of one shard to a tenant of the other, claimed in the directory', async () => {
    const relayer = await fundedRelayer();
    const contract = await deployReference('erc20', { owner: relayer.address, deployerKey: relayer.privateKey, decimals: 0 });
    const owner = await createPerson('owner');
    const [first, second] = [await placedTenant(owner, pinnedTo('SHARD_0')), await placedTenant(owner, pinnedTo('SHARD_1'))];
    const body = { type: 'erc20', chain_id: 31337, key: 'points', name: 'Points', symbol: 'PTS', decimals: 0, asset_address: contract };
    const registered = await send(portalRequest(owner, 'POST', `/api/v1/tenant/${first.id}/onchain-assets`, body));
    expect(registered.status, registered.text).toBe(201);
    expectError(await send(portalRequest(owner, 'POST', `/api/v1/tenant/${second.id}/onchain-assets`, body)), 409, 'CONFLICT', /belongs to another tenant/);
    const claims = await env.DB.prepare('SELECT tenant_id AS tenant FROM onchain_contracts WHERE address = ?').bind(getAddress(contract)).all<{ tenant: string }>();
    expect(claims.results).toEqual([{ tenant: first.id }]);
    const secondShard = shardBindings().find(({ name }) => name === 'SHARD_1')!.db;
    expect((await rowsOf(secondShard, second.id)).onchain_assets).toBeUndefined();
  });
});

describe('crons cover every shard', () => {
  it('the hourly run purges expired idempotency records in both shards', async () => {
    const { first, second } = await tenantOnEachShard();
    const shards = [first, second].map((tenant) => ({ tenant, db: shardBindings().find(({ name }) => name === tenant.shard)!.db }));
    for (const { tenant, db } of shards) {
      await db.prepare("UPDATE idempotency_records SET expires_at = '2000-01-01T00:00:00.000Z' WHERE tenant_id = ?").bind(tenant.id).run();
      expect((await rowsOf(db, tenant.id)).idempotency_records).toBeGreaterThan(0);
    }
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: '0 * * * *', scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    for (const { tenant, db } of shards) expect((await rowsOf(db, tenant.id)).idempotency_records).toBeUndefined();
  });
});
