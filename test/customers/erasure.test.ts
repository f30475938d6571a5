import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customerAttributeValues, idempotencyRecords, webhookEvents } from '../../src/db/schema';
import { pageSchema } from '../../src/lib/paging';
import { customerSchema } from '../../src/schemas/customer';
import { customerDataSchema } from '../../src/schemas/customer-data';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { createCustomerViaApi } from '../support/customers';
import { expectError, expectOk } from '../support/http';
import { earn } from '../support/points';
import { insertReward, redeem } from '../support/rewards';
import { createCohort, defineAttribute, memberIds, rulesOf, setValues } from '../support/segments';
import { createEndpoint, deliverPending, newInbox, received } from '../support/webhooks';
import { addMember, createTenant, createTestApiKey, db, gatewayCall, otherTenants, portalCall, type TestApiKey, type TestTenant } from '../support/world';

/**
 * Erasure and subject access over the HTTP surface (CONTRACT.md, "Operations: erasure";
 * docs/OPERATIONS.md): the person's data is gone from every route, webhook body, cohort and stored
 * response; the financial record stays under the customer id; the export shows everything held.
 */

const EMAIL = 'erase.me@example.com';
const USERNAME = 'erase-me';

type World = { tenant: TestTenant; key: TestApiKey; userId: string; externalId: string; inbox: string };

/** A customer with an email, username, attribute value, XP, a redemption, and an endpoint for customer events; in `given` (one of `otherTenants`) or a new tenant. */
async function personWorld(given?: TestTenant): Promise<World> {
  const tenant = given ?? (await createTenant('erasure'));
  const key = await createTestApiKey(tenant.id);
  const inbox = newInbox();
  await createEndpoint(tenant.owner, tenant.id, inbox.url, ['customer.created', 'customer.erased', 'redemption.completed']);
  const externalId = `shop-${crypto.randomUUID()}`;
  const customer = await createCustomerViaApi(key, { external_id: externalId, email: EMAIL, username: USERNAME, country_code: 'DE' });
  await defineAttribute(tenant.owner, tenant.id, 'favorite_drink', 'string');
  await setValues(tenant.owner, tenant.id, customer.id, { favorite_drink: 'oat flat white' });
  return { tenant, key, userId: customer.id, externalId, inbox: inbox.name };
}

const erase = (w: World, member = w.tenant.owner) => portalCall(member, 'POST', `/api/v1/tenant/${w.tenant.id}/customers/${w.userId}/erase`);
const exportOf = (w: World) => portalCall(w.tenant.owner, 'GET', `/api/v1/tenant/${w.tenant.id}/customers/${w.userId}/export`);

/** Whether any of the person's values appears in `text`. */
const showsPerson = (w: World, text: string) => [EMAIL, USERNAME, w.externalId, 'oat flat white'].some((value) => text.includes(value));

describe('erasing a person', () => {
  it("removes email, username, external id and attribute values, keeps the money and the tier, and answers the erased customer", async () => {
    const w = await personWorld();
    await earn({ tenant: w.tenant, key: w.key, userId: w.userId }, 300);
    const reward = await insertReward(w.tenant.id, { xpCost: 100 });
    expect((await redeem(w.key, w.userId, reward.id)).status).toBe(201);

    const erased = expectOk(await erase(w), 200, customerSchema);
    expect(erased).toMatchObject({ id: w.userId, email: null, username: null, country_code: 'DE', xp_balance: '200', lifetime_xp: '300' });
    expect(erased.external_id).toMatch(/^erased_[0-9a-f]{32}$/);
    expect(await db(w.tenant.id).select().from(customerAttributeValues).where(eq(customerAttributeValues.userId, w.userId))).toEqual([]);

    // Idempotent: the same customer again, no second event.
    expect(expectOk(await erase(w), 200, customerSchema)).toEqual(erased);
    const events = await db(w.tenant.id).select().from(webhookEvents).where(and(eq(webhookEvents.tenantId, w.tenant.id), eq(webhookEvents.type, 'customer.erased')));
    expect(events.map((event) => event.resourceId)).toEqual([w.userId]);

    const transactions = expectOk(await gatewayCall(w.key, 'GET', `/api/v1/gateway/internal-transactions?user_id=${w.userId}`), 200, pageSchema(internalTransactionSchema));
    expect(transactions.total_count).toBe(2);
  });

  it('after it no route finds the person by the old values, and an upsert with the old external id creates a new customer', async () => {
    const w = await personWorld();
    expectOk(await erase(w), 200, customerSchema);
    const byExternalId = expectOk(await gatewayCall(w.key, 'GET', `/api/v1/gateway/customers?external_id=${w.externalId}`), 200, pageSchema(customerSchema));
    expect(byExternalId.items).toEqual([]);
    const byEmail = expectOk(await portalCall(w.tenant.owner, 'GET', `/api/v1/tenant/${w.tenant.id}/customers?email=${EMAIL}`), 200, pageSchema(customerSchema));
    expect(byEmail.items).toEqual([]);
    const all = await portalCall(w.tenant.owner, 'GET', `/api/v1/tenant/${w.tenant.id}/customers?limit=100`);
    expect(showsPerson(w, all.text)).toBe(false);

    const again = await createCustomerViaApi(w.key, { external_id: w.externalId, email: EMAIL });
    expect(again.id).not.toBe(w.userId);
    expect(again.lifetime_xp).toBe('0');
  });

  it('a cohort on the erased attribute loses the customer', async () => {
    const w = await personWorld();
    const cohort = await createCohort(w.tenant.owner, w.tenant.id, rulesOf('and', { type: 'attribute', key: 'favorite_drink', op: 'exists' }), 'Has a drink');
    expect(await memberIds(w.tenant.owner, w.tenant.id, cohort.id)).toEqual([w.userId]);
    expectOk(await erase(w), 200, customerSchema);
    expect(await memberIds(w.tenant.owner, w.tenant.id, cohort.id)).toEqual([]);
  });

  it('webhook bodies already rendered with the person (its own events, its redemptions\') are rendered again without them; customer.erased is sent', async () => {
    const w = await personWorld();
    await earn({ tenant: w.tenant, key: w.key, userId: w.userId }, 50);
    const reward = await insertReward(w.tenant.id, { xpCost: 10 });
    expect((await redeem(w.key, w.userId, reward.id)).status).toBe(201);
    await deliverPending(w.tenant.id);
    const sent = await received(w.inbox);
    expect(sent.map((request) => (JSON.parse(request.body) as { type: string }).type).sort()).toEqual(['customer.created', 'redemption.completed']);
    expect(sent.every((request) => showsPerson(w, request.body))).toBe(true);
    const stored = await db(w.tenant.id).select({ payload: webhookEvents.payload }).from(webhookEvents).where(eq(webhookEvents.tenantId, w.tenant.id));
    expect(stored.filter((event) => event.payload !== null && showsPerson(w, event.payload))).toHaveLength(2);

    expectOk(await erase(w), 200, customerSchema);
    const after = await db(w.tenant.id).select({ payload: webhookEvents.payload }).from(webhookEvents).where(eq(webhookEvents.tenantId, w.tenant.id));
    expect(after.filter((event) => event.payload !== null && showsPerson(w, event.payload))).toEqual([]);
    await deliverPending(w.tenant.id);
    const bodies = (await received(w.inbox)).map((request) => JSON.parse(request.body) as { type: string; data: { data: { email: string | null } } });
    expect(bodies.map((body) => body.type).sort()).toEqual(['customer.created', 'customer.erased', 'redemption.completed']);
    expect(bodies.find((body) => body.type === 'customer.erased')?.data.data.email).toBeNull();
  });

  it('a stored idempotent response that shows the person is forgotten', async () => {
    const w = await personWorld();
    const key = `upsert-${crypto.randomUUID()}`;
    const upsert = () => gatewayCall(w.key, 'POST', '/api/v1/gateway/customers', { body: { external_id: w.externalId, email: EMAIL }, idempotencyKey: key });
    expect((await upsert()).status).toBe(200);
    const records = () => db(w.tenant.id).select().from(idempotencyRecords).where(and(eq(idempotencyRecords.tenantId, w.tenant.id), eq(idempotencyRecords.key, key)));
    expect(await records()).toHaveLength(1);
    expectOk(await erase(w), 200, customerSchema);
    expect(await records()).toEqual([]);
  });

  it('is for admins (403 to an editor and a viewer), and 404 for an unknown customer or another tenant’s (on another shard and on the same one)', async () => {
    const w = await personWorld();
    for (const role of ['editor', 'viewer'] as const) {
      expectError(await erase(w, await addMember(w.tenant.id, role)), 403, 'FORBIDDEN', `Your role (${role}) may not manage personal data in this tenant`);
    }
    expectError(await portalCall(w.tenant.owner, 'POST', `/api/v1/tenant/${w.tenant.id}/customers/cus_missing/erase`), 404, 'NOT_FOUND');
    for (const tenant of await otherTenants(w.tenant.id, 'erasure')) {
      const other = await personWorld(tenant);
      expectError(await portalCall(w.tenant.owner, 'POST', `/api/v1/tenant/${w.tenant.id}/customers/${other.userId}/erase`), 404, 'NOT_FOUND');
      // Nothing of the other tenant's customer moved.
      const untouched = expectOk(await portalCall(other.tenant.owner, 'GET', `/api/v1/tenant/${other.tenant.id}/customers/${other.userId}`), 200, customerSchema);
      expect(untouched).toMatchObject({ email: EMAIL, username: USERNAME, external_id: other.externalId });
    }
  });
});

describe('subject access', () => {
  it('exports everything held about the customer, each record as the API shows it, on one page', async () => {
    const w = await personWorld();
    const pointsWorld = { tenant: w.tenant, key: w.key, userId: w.userId };
    for (let i = 0; i < 105; i++) await earn(pointsWorld, 1);
    const reward = await insertReward(w.tenant.id, { xpCost: 5 });
    expect((await redeem(w.key, w.userId, reward.id)).status).toBe(201);
    const cohort = await createCohort(w.tenant.owner, w.tenant.id, rulesOf('and', { type: 'country', op: 'eq', value: 'DE' }), 'Germany');

    const data = expectOk(await exportOf(w), 200, customerDataSchema);
    expect(data.customer).toMatchObject({ id: w.userId, email: EMAIL, username: USERNAME, external_id: w.externalId });
    expect(data.attributes).toEqual([expect.objectContaining({ key: 'favorite_drink', value: 'oat flat white' })]);
    // More than one page of the API's lists: all of them.
    expect(data.internal_transactions).toHaveLength(106);
    expect(data.point_lots).toHaveLength(105);
    expect(data.redemptions).toHaveLength(1);
    expect(data.points).toMatchObject({ xp_balance: '100', lifetime_xp: '105' });
    expect(data.wallets).toHaveLength(1);
    expect(data.cohorts).toEqual([{ id: cohort.id, name: 'Germany' }]);

    expectOk(await erase(w), 200, customerSchema);
    const afterErasure = await exportOf(w);
    expect(showsPerson(w, afterErasure.text)).toBe(false);
    expect(expectOk(afterErasure, 200, customerDataSchema).internal_transactions).toHaveLength(106);
  });

  it('is for admins, and 404 for another tenant’s customer (on another shard and on the same one)', async () => {
    const w = await personWorld();
    expectError(await portalCall(await addMember(w.tenant.id, 'editor'), 'GET', `/api/v1/tenant/${w.tenant.id}/customers/${w.userId}/export`), 403, 'FORBIDDEN');
    for (const tenant of await otherTenants(w.tenant.id, 'erasure')) {
      const other = await personWorld(tenant);
      expectError(await portalCall(w.tenant.owner, 'GET', `/api/v1/tenant/${w.tenant.id}/customers/${other.userId}/export`), 404, 'NOT_FOUND');
    }
  });
});
