import { describe, expect, it } from 'vitest';
import { createCustomerViaApi } from '../support/customers';
import { expectError, expectOk } from '../support/http';
import { amounts, createRuleViaApi, recordEvent } from '../support/rules';
import { createTenant, createTestApiKey, gatewayCall, portalCall } from '../support/world';
import { eventDryRunSchema, simulationSchema } from '../../src/schemas/event';
import { customerSchema } from '../../src/schemas/customer';

async function setup() {
  const tenant = await createTenant('events');
  const key = await createTestApiKey(tenant.id);
  const customer = await createCustomerViaApi(key);
  return { tenant, key, customer };
}

describe('POST /gateway/events', () => {
  it('applies a fixed rule and a per-unit rule, and credits the customer', async () => {
    const { tenant, key, customer } = await setup();
    await createRuleViaApi(tenant.owner, tenant.id, { name: 'Ten', effect: { kind: 'fixed', amount: '10' } });
    await createRuleViaApi(tenant.owner, tenant.id, { name: 'Two per dollar', effect: { kind: 'per_unit', property: 'total', xp_per_unit: '2' } });
    const event = await recordEvent(key, { user_id: customer.id, properties: { total: 45.99 } });
    expect(amounts(event).sort()).toEqual(['10', '91']);
    expect(event.effects.every((effect) => effect.internal_transaction_id !== null)).toBe(true);
    const after = expectOk(await gatewayCall(key, 'GET', `/api/v1/gateway/customers/${customer.id}`), 200, customerSchema);
    expect(after.xp_balance).toBe('101');
    expect(after.lifetime_xp).toBe('101');
  });

  it('dry run and simulate write nothing and agree', async () => {
    const { tenant, key, customer } = await setup();
    await createRuleViaApi(tenant.owner, tenant.id, { name: 'Ten', effect: { kind: 'fixed', amount: '10' }, limits: { per_customer: [{ period: 'day', max_times: 1 }] } });
    const dry = expectOk(await gatewayCall(key, 'POST', '/api/v1/gateway/events?dry_run=true', { body: { type: 'order.paid', user_id: customer.id } }), 200, eventDryRunSchema);
    expect(dry.xp_awarded).toBe('10');
    const sim = expectOk(await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/earning-rules/simulate`, { type: 'order.paid', user_id: customer.id }), 200, simulationSchema);
    expect(sim.rules.map((rule) => [rule.applied, rule.amount, rule.reason])).toEqual([[true, '10', null]]);
    const first = await recordEvent(key, { user_id: customer.id });
    expect(amounts(first)).toEqual(['10']);
    const second = await recordEvent(key, { user_id: customer.id });
    expect(second.effects).toEqual([{ ...second.effects[0], amount: '0', capped: true, internal_transaction_id: null }]);
  });

  it('unknown customer is 404 at user_id', async () => {
    const { key } = await setup();
    expectError(await gatewayCall(key, 'POST', '/api/v1/gateway/events', { body: { type: 'order.paid', user_id: 'cus_nope' } }), 404, 'NOT_FOUND');
  });
});
