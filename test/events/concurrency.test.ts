import { describe, expect, it } from 'vitest';
import { earningRuleSchema } from '../../src/schemas/earning-rule';
import { eventSchema } from '../../src/schemas/event';
import { createCustomerViaApi } from '../support/customers';
import { expectOk } from '../support/http';
import { gatewayRequest, race } from '../support/race';
import { createRuleViaApi } from '../support/rules';
import { createTenant, createTestApiKey, db, portalCall } from '../support/world';
import { sql } from 'drizzle-orm';

const EVENTS = '/api/v1/gateway/events';
/** The event's own write batch (held by `race` until every request has reached it). */
const EVENT_BATCH = /insert into event_effects/i;

async function ledgerOf(tenantId: string) {
  const [row] = await db(tenantId).all<{ entries: number; total: number; balances: number }>(sql`select
    (select count(*) from internal_transactions where tenant_id = ${tenantId}) as entries,
    (select coalesce(sum(amount), 0) from internal_transactions where tenant_id = ${tenantId}) as total,
    (select coalesce(sum(xp_balance), 0) from customers where tenant_id = ${tenantId}) as balances`);
  return row;
}

describe('limits and budgets under concurrency', () => {
  it('100 events at once for one customer under "at most 5 a day" give exactly 5 effects', async () => {
    const tenant = await createTenant('events-race');
    const key = await createTestApiKey(tenant.id);
    const customer = await createCustomerViaApi(key);
    const rule = await createRuleViaApi(tenant.owner, tenant.id, { limits: { per_customer: [{ period: 'day', max_times: 5 }] } });
    const requests = await Promise.all(Array.from({ length: 100 }, () => gatewayRequest(key, 'POST', EVENTS, { body: { type: 'order.paid', user_id: customer.id } })));
    const { responses, held } = await race(requests, EVENT_BATCH);
    expect(held).toBe(100);
    const events = responses.map((res) => expectOk(res, 201, eventSchema));
    const given = events.flatMap((event) => event.effects.filter((effect) => effect.amount !== '0'));
    expect(given).toHaveLength(5);
    expect(events.filter((event) => event.effects[0]?.capped)).toHaveLength(95);
    expect(await ledgerOf(tenant.id)).toEqual({ entries: 5, total: 50, balances: 50 });
    const after = expectOk(await portalCall(tenant.owner, 'GET', `/api/v1/tenant/${tenant.id}/earning-rules/${rule.id}`), 200, earningRuleSchema);
    expect(after.counters).toEqual({ times_applied: 5, xp_awarded: '50' });
  });

  it('200 events at once across customers against a 1,000 XP budget of 10 XP each award exactly 1,000', async () => {
    const tenant = await createTenant('budget-race');
    const key = await createTestApiKey(tenant.id);
    const customers = await Promise.all(Array.from({ length: 20 }, () => createCustomerViaApi(key)));
    const rule = await createRuleViaApi(tenant.owner, tenant.id, { limits: { total_xp_budget: '1000' } });
    const requests = await Promise.all(
      Array.from({ length: 200 }, (_, i) => gatewayRequest(key, 'POST', EVENTS, { body: { type: 'order.paid', user_id: customers[i % customers.length]?.id } })),
    );
    const { responses, held } = await race(requests, EVENT_BATCH);
    expect(held).toBe(200);
    const events = responses.map((res) => expectOk(res, 201, eventSchema));
    const awarded = events.reduce((sum, event) => sum + Number(event.xp_awarded), 0);
    expect(awarded).toBe(1000);
    expect(await ledgerOf(tenant.id)).toEqual({ entries: 100, total: 1000, balances: 1000 });
    const after = expectOk(await portalCall(tenant.owner, 'GET', `/api/v1/tenant/${tenant.id}/earning-rules/${rule.id}`), 200, earningRuleSchema);
    expect(after.counters).toEqual({ times_applied: 100, xp_awarded: '1000' });
  });
});
