import { env } from 'cloudflare:test';
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AuditedD1 } from '../../src/data/audited-d1';
import { createDatabase } from '../../src/db/client';
import { auditContext, auditLog, rewards } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { customerSchema } from '../../src/schemas/customer';
import { customerDataSchema } from '../../src/schemas/customer-data';
import { createCustomerViaApi } from '../support/customers';
import { expectError, expectOk } from '../support/http';
import { insertReward } from '../support/rewards';
import { createTenant, createTestApiKey, db, gatewayCall, portalCall, shardD1, type TestTenant } from '../support/world';
import { entriesOf, tenantEntries } from './support';

/** What the entries record, that a rolled-back change leaves none, secrets, the gateway, erasure, concurrency. */

const rewardUrl = (tenant: TestTenant, id = '') => `/api/v1/tenant/${tenant.id}/rewards${id ? `/${id}` : ''}`;

/** An AuditedD1 over the test's D1, as the middleware builds it for a request. */
function auditedDb(tenantId: string, action = 'updateReward') {
  const audited = new AuditedD1(shardD1(tenantId), {
    writeId: newId('aw'),
    requestId: newId('req'),
    tenantId,
    at: new Date().toISOString(),
    actorType: 'account',
    actorId: 'acc_test',
    actorLabel: 'test@example.com',
    action,
    tables: ',rewards,',
  });
  return createDatabase(audited.binding);
}

describe('audit entries', () => {
  it('an update records [before, after] of the fields it changed only; a create every field it was given', async () => {
    const tenant = await createTenant('audit-diff');
    const created = await portalCall(tenant.owner, 'POST', rewardUrl(tenant), { title: 'Mug', xp_cost: '100', description: 'Ceramic' });
    const [creation] = await entriesOf(tenant.id, created);
    expect(creation).toMatchObject({ action: 'createReward', target: { type: 'reward' }, changes: { title: [null, 'Mug'], xp_cost: [null, 100], description: [null, 'Ceramic'], status: [null, 'draft'] } });
    const id = (created.body as { data: { id: string } }).data.id;
    const updated = await portalCall(tenant.owner, 'PATCH', rewardUrl(tenant, id), { title: 'Big mug', metadata: { size: 'XL' } });
    const [update] = await entriesOf(tenant.id, updated);
    expect(update!.changes).toEqual({ title: ['Mug', 'Big mug'], metadata: [null, { size: 'XL' }] });
    const deleted = await portalCall(tenant.owner, 'DELETE', rewardUrl(tenant, id));
    expect((await entriesOf(tenant.id, deleted))[0]!.changes).toMatchObject({ title: ['Big mug', null], metadata: [{ size: 'XL' }, null] });
  });

  it('a refused write records nothing, and a batch rolled back after its change fired the trigger leaves neither change nor entry', async () => {
    const tenant = await createTenant('audit-rollback');
    const reward = await insertReward(tenant.id, { title: 'Mug', status: 'active' });
    const refused = await portalCall(tenant.owner, 'PATCH', rewardUrl(tenant, reward.id), { status: 'draft' });
    expectError(refused, 409, 'INVALID_STATUS_TRANSITION');
    expect(await entriesOf(tenant.id, refused)).toEqual([]);

    const audited = auditedDb(tenant.id);
    const change = audited.update(rewards).set({ title: 'Renamed' }).where(eq(rewards.id, reward.id));
    const clash = audited.insert(rewards).values({ id: reward.id, tenantId: tenant.id, title: 'Duplicate id', xpCost: 1 });
    await expect(audited.batch([change, clash])).rejects.toThrow(/UNIQUE constraint failed/);
    expect((await db(tenant.id).select().from(rewards).where(eq(rewards.id, reward.id)))[0]!.title).toBe('Mug');
    expect(await tenantEntries(tenant.id)).toEqual([]);
    await audited.batch([change]);
    expect((await tenantEntries(tenant.id)).map((entry) => entry.changes)).toEqual([{ title: ['Mug', 'Renamed'] }]);
    expect(await db(tenant.id).select({ value: count() }).from(auditContext)).toEqual([{ value: 0 }]);
  });

  it('a request that changes its target twice records one entry: the first before, the last after', async () => {
    const tenant = await createTenant('audit-merge');
    const reward = await insertReward(tenant.id, { title: 'One' });
    const audited = auditedDb(tenant.id);
    await audited.batch([audited.update(rewards).set({ title: 'Two' }).where(eq(rewards.id, reward.id)), audited.update(rewards).set({ title: 'Three', xpCost: 7 }).where(eq(rewards.id, reward.id))]);
    // A second batch of the same request merges too.
    await audited.update(rewards).set({ description: 'Later' }).where(eq(rewards.id, reward.id));
    expect((await tenantEntries(tenant.id)).map((entry) => entry.changes)).toEqual([{ title: ['One', 'Three'], xp_cost: [100, 7], description: ['', 'Later'] }]);
  });

  it('never shows a secret: API key and webhook secrets are "[redacted]", their values appear nowhere', async () => {
    const tenant = await createTenant('audit-secrets');
    const key = await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/api-keys`, { name: 'backend' });
    const { secret: keySecret } = (key.body as { data: { secret: string } }).data;
    const [keyEntry] = await entriesOf(tenant.id, key);
    expect(keyEntry!.changes.secret_ciphertext).toEqual([null, '[redacted]']);
    const endpoint = await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/webhook-endpoints`, { url: 'https://hooks.example.com/x', event_types: ['customer.created'] });
    const { id, secret: hookSecret } = (endpoint.body as { data: { id: string; secret: string } }).data;
    const rotated = await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/webhook-endpoints/${id}/rotate-secret`);
    const newSecret = (rotated.body as { data: { secret: string } }).data.secret;
    expect((await entriesOf(tenant.id, rotated))[0]!.changes).toMatchObject({ secret_ciphertext: ['[redacted]', '[redacted]'], previous_secret_ciphertext: [null, '[redacted]'] });
    const everything = JSON.stringify(await db(tenant.id).select().from(auditLog).where(eq(auditLog.tenantId, tenant.id)));
    for (const secret of [keySecret, hookSecret, newSecret]) expect(everything).not.toContain(secret.slice(-24));
  });

  it('gateway customer and attribute writes name the API key; an idempotent replay records no second entry', async () => {
    const tenant = await createTenant('audit-gateway');
    const key = await createTestApiKey(tenant.id);
    await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/attributes`, { key: 'plan', type: 'string' });
    const body = { external_id: 'shop-1', email: 'a@example.com' };
    const first = await gatewayCall(key, 'POST', '/api/v1/gateway/customers', { body, idempotencyKey: 'upsert-1' });
    const customer = expectOk(first, 201, customerSchema);
    expect(await entriesOf(tenant.id, first)).toMatchObject([{ action: 'gatewayUpsertCustomer', actor: { type: 'api_key', id: key.id, label: key.keyId }, target: { type: 'customer', id: customer.id }, changes: { email: [null, 'a@example.com'], external_id: [null, 'shop-1'] } }]);
    expect((await gatewayCall(key, 'POST', '/api/v1/gateway/customers', { body, idempotencyKey: 'upsert-1' })).status).toBe(201);
    const attributes = await gatewayCall(key, 'PUT', `/api/v1/gateway/customers/${customer.id}/attributes`, { body: { values: { plan: 'gold' } } });
    expect(attributes.status).toBe(200);
    expect(await entriesOf(tenant.id, attributes)).toMatchObject([{ action: 'gatewaySetCustomerAttributes', target: { type: 'customer', id: customer.id }, changes: { 'attr.plan': [null, 'gold'] } }]);
    expect(await tenantEntries(tenant.id)).toHaveLength(3);
  });

  it('writes fired at once each record their own entry, and leave no audit context behind', async () => {
    const tenant = await createTenant('audit-concurrent');
    const created = await Promise.all(Array.from({ length: 8 }, (_, i) => insertReward(tenant.id, { title: `R${i}` })));
    const responses = await Promise.all(created.map((reward, i) => portalCall(tenant.owner, 'PATCH', rewardUrl(tenant, reward.id), { title: `Renamed ${i}` })));
    for (const [i, res] of responses.entries()) expect(await entriesOf(tenant.id, res)).toMatchObject([{ target: { id: created[i]!.id }, changes: { title: [`R${i}`, `Renamed ${i}`] } }]);
    expect(await db(tenant.id).select({ value: count() }).from(auditContext)).toEqual([{ value: 0 }]);
  });
});

describe('erasure in the audit log', () => {
  it("records who erased whom, blanks the person's values in every entry about them, and the subject access export lists the entries", async () => {
    const tenant = await createTenant('audit-erasure');
    const key = await createTestApiKey(tenant.id);
    await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/attributes`, { key: 'drink', type: 'string' });
    const customer = await createCustomerViaApi(key, { external_id: 'shop-erase', email: 'person@example.com', username: 'person' });
    await portalCall(tenant.owner, 'PUT', `/api/v1/tenant/${tenant.id}/customers/${customer.id}/attributes`, { values: { drink: 'oat flat white' } });
    const before = expectOk(await portalCall(tenant.owner, 'GET', `/api/v1/tenant/${tenant.id}/customers/${customer.id}/export`), 200, customerDataSchema);
    expect(before.audit_log.map((entry) => entry.action)).toEqual(['setCustomerAttributes', 'gatewayUpsertCustomer']);

    const erased = await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/customers/${customer.id}/erase`);
    expect(await entriesOf(tenant.id, erased)).toMatchObject([
      { action: 'eraseCustomer', actor: { id: tenant.owner.accountId }, target: { type: 'customer', id: customer.id }, changes: { email: ['[erased]', null], username: ['[erased]', null], 'attr.drink': ['[erased]', null] } },
    ]);
    const entries = await tenantEntries(tenant.id);
    expect(entries.find((entry) => entry.action === 'gatewayUpsertCustomer')!.changes).toMatchObject({ email: [null, '[erased]'], external_id: [null, '[erased]'], status: [null, 'active'] });
    const list = await portalCall(tenant.owner, 'GET', `/api/v1/tenant/${tenant.id}/audit-log?target_id=${customer.id}`);
    for (const value of ['person@example.com', 'shop-erase', 'oat flat white', '"person"']) expect(list.text).not.toContain(value);
    expect(JSON.stringify(entries)).not.toContain('person@example.com');
  });
});
