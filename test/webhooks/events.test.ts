import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { blockchainTransactions } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { createCustomerViaApi, createTierViaApi } from '../support/customers';
import { expectOk } from '../support/http';
import { customerWithXp, insertReward, redeem } from '../support/rewards';
import { createEndpoint, deliverPending, eventsOf, newInbox, received, verifiedEvent } from '../support/webhooks';
import { createTenant, createTestApiKey, db, gatewayCall, otherTenants, portalCall } from '../support/world';
import { redemptionSchema } from '../../src/schemas/redemption';

/** Events reach a real receiver, signed per Standard Webhooks, with the documented body. */
describe('webhook events', () => {
  it('customer.created: the customer in the envelope, webhook-id = event id, verified by the standardwebhooks package', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const inbox = newInbox();
    const endpoint = await createEndpoint(tenant.owner, tenant.id, inbox.url, ['customer.created']);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

    const customer = await createCustomerViaApi(key, { email: 'ada@example.com' });
    const [event] = await eventsOf(tenant.id);
    expect(event).toMatchObject({ type: 'customer.created', resourceId: customer.id });
    await deliverPending(tenant.id);

    const [request, ...more] = await received(inbox.name);
    expect(more).toHaveLength(0);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['webhook-id']).toBe(event!.id);
    const body = verifiedEvent(request!, endpoint.secret);
    expect(body).toMatchObject({ id: event!.id, type: 'customer.created', tenant_id: tenant.id, data: { success: true, data: customer } });
  });

  it('xp.transaction.completed and customer.tier_changed (with the previous tier) for an earn that crosses a threshold', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const bronze = await createTierViaApi(tenant.owner, tenant.id, 'Bronze', 0);
    const silver = await createTierViaApi(tenant.owner, tenant.id, 'Silver', 100);
    const customer = await createCustomerViaApi(key);
    const inbox = newInbox();
    const endpoint = await createEndpoint(tenant.owner, tenant.id, inbox.url, ['xp.transaction.completed', 'customer.tier_changed']);

    const earn = await gatewayCall(key, 'POST', '/api/v1/gateway/xp', { body: { user_id: customer.id, type: 'xp_earn', amount: '150' } });
    expect(earn.status, earn.text).toBe(201);
    const small = await gatewayCall(key, 'POST', '/api/v1/gateway/xp', { body: { user_id: customer.id, type: 'xp_bonus', amount: '5' } });
    expect(small.status, small.text).toBe(201);
    await deliverPending(tenant.id);

    const bodies = (await received(inbox.name)).map((request) => verifiedEvent(request, endpoint.secret));
    expect(bodies.map((body) => body.type).sort()).toEqual(['customer.tier_changed', 'xp.transaction.completed', 'xp.transaction.completed']);
    const tierChange = bodies.find((body) => body.type === 'customer.tier_changed')!;
    expect(tierChange.previous_attributes).toEqual({ tier: { id: bronze.id, tier_name: 'Bronze' } });
    expect(tierChange.data.data).toMatchObject({ id: customer.id, tier: { id: silver.id, tier_name: 'Silver' } });
    const earned = bodies.find((body) => body.type === 'xp.transaction.completed' && (body.data.data as { amount: string }).amount === '150')!;
    expect(earned.data.data).toMatchObject({ id: (earn.body as { data: { id: string } }).data.id, status: 'completed', type: 'xp_earn' });
  });

  it('customer.status_changed carries the status before the change', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const customer = await createCustomerViaApi(key);
    const inbox = newInbox();
    const endpoint = await createEndpoint(tenant.owner, tenant.id, inbox.url, ['customer.status_changed']);

    const res = await portalCall(tenant.owner, 'PATCH', `/api/v1/tenant/${tenant.id}/customers/${customer.id}`, { status: 'suspended' });
    expect(res.status, res.text).toBe(200);
    await deliverPending(tenant.id);

    const [body] = (await received(inbox.name)).map((request) => verifiedEvent(request, endpoint.secret));
    expect(body).toMatchObject({ type: 'customer.status_changed', previous_attributes: { status: customer.status }, data: { data: { id: customer.id, status: 'suspended' } } });
  });

  it('redemption.completed, then redemption.canceled with the status it had', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const userId = await customerWithXp(tenant.id, 500);
    const reward = await insertReward(tenant.id, { xpCost: 120 });
    const inbox = newInbox();
    const endpoint = await createEndpoint(tenant.owner, tenant.id, inbox.url, ['redemption.completed', 'redemption.canceled']);

    const redemption = expectOk(await redeem(key, userId, reward.id), 201, redemptionSchema);
    const cancel = await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/redemptions/${redemption.id}/cancel`);
    expect(cancel.status, cancel.text).toBe(200);
    await deliverPending(tenant.id);

    const bodies = (await received(inbox.name)).map((request) => verifiedEvent(request, endpoint.secret));
    const byType = Object.fromEntries(bodies.map((body) => [body.type, body]));
    expect(Object.keys(byType).sort()).toEqual(['redemption.canceled', 'redemption.completed']);
    expect(byType['redemption.canceled']).toMatchObject({ previous_attributes: { status: 'completed' }, data: { data: { id: redemption.id, status: 'canceled' } } });
  });

  it('onchain.transaction.succeeded when a blockchain transaction of the tenant succeeds', async () => {
    const tenant = await createTenant();
    const inbox = newInbox();
    const endpoint = await createEndpoint(tenant.owner, tenant.id, inbox.url, ['onchain.transaction.succeeded', 'onchain.transaction.failed']);
    const id = newId('btx');
    await db(tenant.id).insert(blockchainTransactions).values({ id, tenantId: tenant.id, chainId: 31337, txnStatus: 'submitted', txHash: `0x${'ab'.repeat(32)}` });
    await db(tenant.id).update(blockchainTransactions).set({ txnStatus: 'succeeded' }).where(eq(blockchainTransactions.id, id));
    await deliverPending(tenant.id);

    const [body] = (await received(inbox.name)).map((request) => verifiedEvent(request, endpoint.secret));
    expect(body).toMatchObject({ type: 'onchain.transaction.succeeded', data: { data: { id, txn_status: 'succeeded', chain_id: 31337 } } });
  });

  it('only subscribed types of the tenant itself are recorded: nothing for other types or other tenants (on another shard or the same one)', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    await createEndpoint(tenant.owner, tenant.id, newInbox().url, ['redemption.failed']);
    const customer = await createCustomerViaApi(key);
    await gatewayCall(key, 'POST', '/api/v1/gateway/xp', { body: { user_id: customer.id, type: 'xp_earn', amount: '10' } });
    expect(await eventsOf(tenant.id)).toEqual([]);
    // Now the tenant listens to customer.created: another tenant's new customer must still find no endpoint of it.
    await createEndpoint(tenant.owner, tenant.id, newInbox().url, ['customer.created']);
    for (const other of await otherTenants(tenant.id)) {
      await createCustomerViaApi(await createTestApiKey(other.id));
      expect(await eventsOf(tenant.id)).toEqual([]);
      expect(await eventsOf(other.id)).toEqual([]);
    }
  });
});
