import { describe, expect, it } from 'vitest';
import { successFlagSchema } from '../../src/lib/envelope';
import { pageSchema } from '../../src/lib/paging';
import { earningRuleSchema } from '../../src/schemas/earning-rule';
import { eventSchema, type EventView } from '../../src/schemas/event';
import { createCustomerViaApi } from '../support/customers';
import { expectError, expectOk } from '../support/http';
import { tenantPath } from '../support/segments';
import { addMember, createTenant, createTestApiKey, gatewayCall, otherTenants, portalCall, type TestApiKey, type TestTenant } from '../support/world';

/** Reads of reported events on both surfaces (CONTRACT.md, Events and earning rules): newest first, filters, effects in order, tenants apart. */

const GATEWAY = '/api/v1/gateway/events';
const eventPage = pageSchema(eventSchema);

async function world(given?: TestTenant) {
  const tenant = given ?? (await createTenant());
  const key = await createTestApiKey(tenant.id);
  const rule = (body: Record<string, unknown>) => portalCall(tenant.owner, 'POST', tenantPath(tenant.id, '/earning-rules'), { event_type: 'order.paid', ...body });
  const first = expectOk(await rule({ name: 'Base', priority: 2, effect: { kind: 'fixed', amount: '10' } }), 201, earningRuleSchema);
  const second = expectOk(await rule({ name: 'Per dollar', priority: 1, effect: { kind: 'per_unit', property: 'total', xp_per_unit: '2' } }), 201, earningRuleSchema);
  const [ann, bob] = await Promise.all([createCustomerViaApi(key), createCustomerViaApi(key)]);
  return { tenant, key, rules: [first, second], ann: ann.id, bob: bob.id };
}

async function report(key: TestApiKey, body: Record<string, unknown>): Promise<EventView> {
  return expectOk(await gatewayCall(key, 'POST', GATEWAY, { body }), 201, eventSchema);
}

const portalEvents = (tenant: TestTenant, rest = '') => tenantPath(tenant.id, `/events${rest}`);

describe('GET /gateway/events and /tenant/{t}/events', () => {
  it('list the events newest first with their effects, filtered by customer and type, the same on both surfaces', async () => {
    const { tenant, key, rules, ann, bob } = await world();
    const e1 = await report(key, { user_id: ann, type: 'order.paid', properties: { total: 5 }, reference: 'ord_1' });
    const e2 = await report(key, { user_id: bob, type: 'order.paid', properties: { total: 1 } });
    const e3 = await report(key, { user_id: ann, type: 'signup' });
    expect(e1.effects.map((effect) => [effect.rule_id, effect.rule_name, effect.amount])).toEqual([
      [rules[0]!.id, 'Base', '10'],
      [rules[1]!.id, 'Per dollar', '10'],
    ]);

    const all = expectOk(await gatewayCall(key, 'GET', GATEWAY), 200, eventPage);
    expect(all.items).toEqual([e3, e2, e1]);
    expect(all).toMatchObject({ total_count: 3, page: 1, total_pages: 1, has_next_page: false });
    expect(expectOk(await portalCall(tenant.owner, 'GET', portalEvents(tenant)), 200, eventPage)).toEqual(all);

    const second = expectOk(await gatewayCall(key, 'GET', `${GATEWAY}?limit=1&page=2`), 200, eventPage);
    expect(second.items).toEqual([e2]);
    expect(second).toMatchObject({ total_count: 3, total_pages: 3, has_next_page: true });

    const ofAnn = expectOk(await gatewayCall(key, 'GET', `${GATEWAY}?user_id=${ann}`), 200, eventPage);
    expect(ofAnn.items.map((event) => event.id)).toEqual([e3.id, e1.id]);
    expect(ofAnn.total_count).toBe(2);
    const paid = expectOk(await portalCall(tenant.owner, 'GET', portalEvents(tenant, '?type=order.paid&limit=1')), 200, eventPage);
    expect(paid.items.map((event) => event.id)).toEqual([e2.id]);
    expect(paid).toMatchObject({ total_count: 2, has_next_page: true });
    const both = expectOk(await gatewayCall(key, 'GET', `${GATEWAY}?user_id=${bob}&type=signup`), 200, eventPage);
    expect(both).toMatchObject({ items: [], total_count: 0, total_pages: 0 });
  });

  it('answer an empty page for a tenant without events', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    expect(expectOk(await gatewayCall(key, 'GET', GATEWAY), 200, eventPage)).toMatchObject({ items: [], total_count: 0, total_pages: 0, has_next_page: false });
  });

  it.each(['?type=Order.Paid', '?user_id=a%20b', '?limit=101', '?page=0'])('answer 422 for %s', async (query) => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    expectError(await gatewayCall(key, 'GET', `${GATEWAY}${query}`), 422, 'VALIDATION_FAILED');
    expectError(await portalCall(tenant.owner, 'GET', portalEvents(tenant, query)), 422, 'VALIDATION_FAILED');
  });
});

describe('GET /gateway/events/{id} and /tenant/{t}/events/{id}', () => {
  it('answer the event with its effects in evaluation order, kept after the rule is deleted; any member role reads them', async () => {
    const { tenant, key, rules, ann } = await world();
    const event = await report(key, { user_id: ann, type: 'order.paid', occurred_at: new Date(Date.now() - 60_000).toISOString(), properties: { total: 7.9, skus: ['a'] } });
    expect(event.xp_awarded).toBe('25');
    expect(expectOk(await gatewayCall(key, 'GET', `${GATEWAY}/${event.id}`), 200, eventSchema)).toEqual(event);
    expectOk(await portalCall(tenant.owner, 'DELETE', tenantPath(tenant.id, `/earning-rules/${rules[0]!.id}`)), 200, successFlagSchema);
    const viewer = await addMember(tenant.id, 'viewer');
    const seen = expectOk(await portalCall(viewer, 'GET', portalEvents(tenant, `/${event.id}`)), 200, eventSchema);
    expect(seen).toEqual(event);
    expect(seen.effects[0]).toMatchObject({ rule_id: rules[0]!.id, rule_name: 'Base', amount: '10', capped: false, internal_transaction_id: expect.any(String) });
  });

  it('answer 404 for a missing event', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    expectError(await gatewayCall(key, 'GET', `${GATEWAY}/evt_missing`), 404, 'NOT_FOUND', 'Event not found');
    expectError(await portalCall(tenant.owner, 'GET', portalEvents(tenant, '/evt_missing')), 404, 'NOT_FOUND', 'Event not found');
  });
});

describe('tenants apart', () => {
  it("never show another tenant's events: 404 by id, absent from lists and filters (on another shard and on the same one)", async () => {
    const mine = await world();
    for (const other of await otherTenants(mine.tenant.id)) {
      const theirs = await world(other);
      const event = await report(theirs.key, { user_id: theirs.ann, type: 'order.paid', properties: { total: 3 } });
      expectError(await gatewayCall(mine.key, 'GET', `${GATEWAY}/${event.id}`), 404, 'NOT_FOUND', 'Event not found');
      expectError(await portalCall(mine.tenant.owner, 'GET', portalEvents(mine.tenant, `/${event.id}`)), 404, 'NOT_FOUND', 'Event not found');
      expectError(await portalCall(mine.tenant.owner, 'GET', portalEvents(theirs.tenant, `/${event.id}`)), 404, 'NOT_FOUND', 'Tenant not found');
      for (const query of ['', `?user_id=${theirs.ann}`, '?type=order.paid']) {
        expect(expectOk(await gatewayCall(mine.key, 'GET', `${GATEWAY}${query}`), 200, eventPage)).toMatchObject({ items: [], total_count: 0 });
        expect(expectOk(await portalCall(mine.tenant.owner, 'GET', portalEvents(mine.tenant, query)), 200, eventPage)).toMatchObject({ items: [], total_count: 0 });
      }
      expect(expectOk(await gatewayCall(theirs.key, 'GET', GATEWAY), 200, eventPage).items).toEqual([event]);
    }
  });
});
