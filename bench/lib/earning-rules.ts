/**
 * The 20 active earning rules on `order.paid` each bench tenant runs (issue 22, "Fast"): every
 * event of the `gateway-events` route evaluates all of them in its batch. A program a manager
 * would write: per-dollar and fixed rewards behind `property` predicates, customer predicates
 * (tier, country, attributes, a cohort, balance), tier multipliers, per-customer limits by day,
 * week, month and lifetime, a window, two total budgets far beyond what a bench run awards, and
 * non-stackable rules at the lowest priorities. Rules per tier and per market are exclusive, so an
 * order of the bench (a random earner, $5-$200) gets about six effects. Created through the
 * portal API with the tenant, so each one is exactly what the API accepts and stores.
 */
import type { z } from '@hono/zod-openapi';
import type { TierName } from '../../scripts/lib/demo-data';
import type { CohortOp } from '../../src/domain/cohort-ops';
import type { createEarningRuleBodySchema } from '../../src/schemas/earning-rule';

export type RuleBody = z.input<typeof createEarningRuleBodySchema>;
type Predicate = NonNullable<RuleBody['conditions']>['predicates'][number];

export const BENCH_EVENT_TYPE = 'order.paid';

/** A budget no bench run exhausts: at most a few hundred XP per event, a few hundred thousand events. */
const NEVER_EXHAUSTED = '1000000000';

/** The tenant's demo tiers (their ids by name) and the id of its cohort "European newsletter readers" (scripts/lib/demo-data.ts). */
export type BenchProgram = { tierIds: ReadonlyMap<TierName, string>; cohortId: string };

const property = (key: string, op: CohortOp, value: string): Predicate => ({ type: 'property', key, op, value });
const all = (...predicates: Predicate[]) => ({ operator: 'and' as const, predicates });

export function benchEarningRules({ tierIds, cohortId }: BenchProgram): RuleBody[] {
  const tierId = (name: TierName) => {
    const id = tierIds.get(name);
    if (!id) throw new Error(`the bench tenant has no tier ${name}`);
    return id;
  };
  const tiers = { bronze: tierId('Bronze'), silver: tierId('Silver'), gold: tierId('Gold') };
  const country = (op: CohortOp, value: string): Predicate => ({ type: 'country', op, value });
  const attribute = (key: string, op: CohortOp, value: string): Predicate => ({ type: 'attribute', key, op, value });
  const day = 86_400_000;
  const rules: Omit<RuleBody, 'event_type'>[] = [
    { name: 'Thanks for your order', priority: 100, effect: { kind: 'fixed', amount: '10' } },
    {
      name: '2 XP per dollar on orders over $20, double for Gold, at most 500 XP a week', priority: 90,
      conditions: all(property('total', 'gt', '20')),
      effect: { kind: 'per_unit', property: 'total', xp_per_unit: '2' },
      multipliers: [{ tier_id: tiers.gold, factor: '2' }, { tier_id: tiers.silver, factor: '1.5' }],
      limits: { per_customer: [{ period: 'week', max_xp: '500' }] },
    },
    {
      name: 'Big basket: 50 XP once a day on $100 or more', priority: 80,
      conditions: all(property('total', 'gte', '100')), effect: { kind: 'fixed', amount: '50' },
      limits: { per_customer: [{ period: 'day', max_times: 1 }] },
    },
    {
      name: 'Welcome: 100 XP on a new member\'s first order', priority: 75,
      conditions: all({ type: 'lifetime_xp', op: 'lt', value: '100' }), effect: { kind: 'fixed', amount: '100' },
      limits: { per_customer: [{ period: 'lifetime', max_times: 1 }] },
    },
    // One tier rule and at most one market rule hold for a customer, as in a program with segments.
    { name: 'Gold: 25 XP', priority: 70, conditions: all({ type: 'tier', op: 'eq', value: tiers.gold }), effect: { kind: 'fixed', amount: '25' } },
    { name: 'Silver: 10 XP', priority: 70, conditions: all({ type: 'tier', op: 'eq', value: tiers.silver }), effect: { kind: 'fixed', amount: '10' } },
    {
      name: 'Bronze: 5 XP, 3 times a week', priority: 70,
      conditions: all({ type: 'tier', op: 'eq', value: tiers.bronze }), effect: { kind: 'fixed', amount: '5' },
      limits: { per_customer: [{ period: 'week', max_times: 3 }] },
    },
    { name: 'US orders in dollars', priority: 60, conditions: all(country('eq', 'US'), property('currency', 'eq', 'USD')), effect: { kind: 'fixed', amount: '5' } },
    { name: 'Germany: 5 XP, 5 a day', priority: 60, conditions: all(country('eq', 'DE')), effect: { kind: 'fixed', amount: '5' }, limits: { per_customer: [{ period: 'day', max_times: 5, max_xp: '25' }] } },
    { name: 'UK and Ireland', priority: 60, conditions: all(country('in', '["GB","IE"]')), effect: { kind: 'fixed', amount: '5' } },
    { name: 'France and Benelux', priority: 60, conditions: all(country('in', '["FR","BE","NL","LU"]')), effect: { kind: 'fixed', amount: '5' } },
    { name: 'Japan: 1 XP per $10', priority: 60, conditions: all(country('eq', 'JP')), effect: { kind: 'per_unit', property: 'total', xp_per_unit: '1', unit: '10' } },
    {
      name: 'Newsletter readers: 10 XP on $100 or more', priority: 50,
      conditions: all(attribute('newsletter_opt_in', 'eq', 'true'), property('total', 'gte', '100')), effect: { kind: 'fixed', amount: '10' },
    },
    {
      name: 'Regulars: 15 XP, 3 times a week', priority: 50,
      conditions: all(attribute('visits_per_month', 'gte', '20')), effect: { kind: 'fixed', amount: '15' },
      limits: { per_customer: [{ period: 'week', max_times: 3 }] },
    },
    {
      name: 'European newsletter readers: 20 XP twice a week', priority: 50,
      conditions: all({ type: 'cohort', op: 'eq', value: cohortId }), effect: { kind: 'fixed', amount: '20' },
      limits: { per_customer: [{ period: 'week', max_times: 2, max_xp: '40' }] },
    },
    {
      name: 'Launch campaign: 5 XP on orders of $150 or more', priority: 40,
      conditions: all(property('total', 'gte', '150')), effect: { kind: 'fixed', amount: '5' },
      limits: { total_xp_budget: NEVER_EXHAUSTED },
      starts_at: new Date(Date.now() - 30 * day).toISOString(), ends_at: new Date(Date.now() + 365 * day).toISOString(),
    },
    {
      name: 'Partner cashback: half an XP per dollar over $120, 200 a day', priority: 40,
      conditions: all(property('total', 'gt', '120')), effect: { kind: 'per_unit', property: 'total', xp_per_unit: '0.5' },
      limits: { per_customer: [{ period: 'day', max_xp: '200' }], total_xp_budget: NEVER_EXHAUSTED },
    },
    { name: 'Savers with 1,000 XP: 5 XP a month', priority: 20, conditions: all({ type: 'xp_balance', op: 'gte', value: '1000' }), effect: { kind: 'fixed', amount: '5' }, limits: { per_customer: [{ period: 'month', max_times: 1 }] } },
    {
      name: 'Coffee lovers: 3 XP (stops the rules below)', priority: -10, stackable: false,
      conditions: all(attribute('favorite_drink', 'in', '["espresso","flat white","cold brew"]')), effect: { kind: 'fixed', amount: '3' },
    },
    { name: 'Everyone else: 1 XP (stops the rules below)', priority: -20, stackable: false, effect: { kind: 'fixed', amount: '1' } },
  ];
  return rules.map((rule) => ({ ...rule, event_type: BENCH_EVENT_TYPE, status: 'active' }));
}
