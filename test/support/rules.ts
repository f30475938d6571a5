import { expect } from 'vitest';
import { earningRuleSchema, type EarningRuleView } from '../../src/schemas/earning-rule';
import { eventSchema, type EventView } from '../../src/schemas/event';
import { expectOk } from './http';
import { gatewayCall, portalCall, type TestApiKey, type TestMember } from './world';

/** Creates an earning rule through the portal; `body` overrides a fixed 10 XP rule on `order.paid`. */
export async function createRuleViaApi(member: TestMember, tenantId: string, body: Record<string, unknown> = {}): Promise<EarningRuleView> {
  const res = await portalCall(member, 'POST', `/api/v1/tenant/${tenantId}/earning-rules`, {
    name: 'Rule',
    event_type: 'order.paid',
    effect: { kind: 'fixed', amount: '10' },
    ...body,
  });
  return expectOk(res, 201, earningRuleSchema);
}

/** Reports an event through the gateway and expects it written. */
export async function recordEvent(key: TestApiKey, body: Record<string, unknown>): Promise<EventView> {
  const res = await gatewayCall(key, 'POST', '/api/v1/gateway/events', { body: { type: 'order.paid', ...body } });
  return expectOk(res, 201, eventSchema);
}

export function amounts(event: EventView): string[] {
  expect(event.xp_awarded).toBe(String(event.effects.reduce((sum, effect) => sum + Number(effect.amount), 0)));
  return event.effects.map((effect) => effect.amount);
}

export const EVENTS_PATH = '/api/v1/gateway/events';

/** The names of the rules whose effects gave XP, in evaluation order (a capped-to-0 effect gave none). */
export function givingRules(event: Pick<EventView, 'effects'>): string[] {
  return event.effects.filter((effect) => effect.amount !== '0').map((effect) => effect.rule_name);
}

/** `POST /tenant/{t}/earning-rules/simulate` as `member` (the event type defaults to `order.paid`). */
export function simulateCall(member: TestMember, tenantId: string, body: Record<string, unknown>) {
  return portalCall(member, 'POST', `/api/v1/tenant/${tenantId}/earning-rules/simulate`, { type: 'order.paid', ...body });
}

/** The rule as the portal shows it now (its counters included). */
export async function ruleViaApi(member: TestMember, tenantId: string, ruleId: string): Promise<EarningRuleView> {
  return expectOk(await portalCall(member, 'GET', `/api/v1/tenant/${tenantId}/earning-rules/${ruleId}`), 200, earningRuleSchema);
}
