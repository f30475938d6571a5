/**
 * The demo program's engine (docs/RULES.md): earning rules, the tenant's time zone, and a few
 * events that the rules turn into XP. Run by scripts/seed.ts through the API; idempotent (rules are
 * found by name, events by their `reference`).
 */
import { apiCall, dataOf, type GatewayKey } from './api-client';
import { PROGRAM_TIMEZONE } from './demo-data';
import { listAll, onceKey, type Report } from './seed-report';

type Rule = { id: string; name: string };

/** "2 XP per dollar on orders over $20, double for Gold, at most 500 XP a week", and a daily review bonus. */
function demoRules(goldTierId: string | undefined) {
  return [
    {
      name: 'Orders over $20',
      description: '2 XP per dollar, double for Gold, at most 500 XP a week',
      event_type: 'order.paid',
      conditions: { operator: 'and', predicates: [{ type: 'property', key: 'total', op: 'gt', value: '20' }] },
      effect: { kind: 'per_unit', property: 'total', xp_per_unit: '2' },
      multipliers: goldTierId ? [{ tier_id: goldTierId, factor: '2' }] : [],
      limits: { per_customer: [{ period: 'week', max_xp: '500' }] },
    },
    {
      name: 'Daily review',
      description: '50 XP for the first review of the day',
      event_type: 'review.written',
      effect: { kind: 'fixed', amount: '50' },
      limits: { per_customer: [{ period: 'day', max_times: 1 }] },
    },
  ];
}

const DEMO_EVENTS = [
  { external_id: 'demo-1001', type: 'order.paid', reference: 'demo-order-5001', properties: { total: 45.99, currency: 'USD' } },
  { external_id: 'demo-1002', type: 'order.paid', reference: 'demo-order-5002', properties: { total: 18.5, currency: 'USD' } },
  { external_id: 'demo-1007', type: 'review.written', reference: 'demo-review-7001', properties: { stars: 5 } },
];

export async function seedProgram(options: { token: string; tenantId: string; gatewayKey?: GatewayKey; tierIds: Map<string, string>; customerIds: Map<string, string>; report: Report }) {
  const { token, tenantId, gatewayKey, customerIds, report } = options;
  if (report.routeMissing('POST earning-rules')) return;
  // Points and tiers left out are their defaults: the XP the seed credits is spendable at once;
  // scripts/lib/seed-points.ts switches the point lifecycle on when the seed ends.
  const settings = await apiCall('PUT', `/tenant/${tenantId}/program-settings`, { token, body: { timezone: PROGRAM_TIMEZONE } });
  if (settings.ok) report.ok(`program time zone ${PROGRAM_TIMEZONE}`);
  else report.fail('program settings', settings);

  const listed = await listAll<Rule>(`/tenant/${tenantId}/earning-rules`, token);
  for (const rule of demoRules(options.tierIds.get('Gold'))) {
    if (listed.items?.some((item) => item.name === rule.name)) {
      report.ok(`earning rule "${rule.name}" already exists`);
      continue;
    }
    const res = await apiCall('POST', `/tenant/${tenantId}/earning-rules`, { token, body: rule });
    if (dataOf<Rule>(res)) report.ok(`earning rule "${rule.name}" created`, rule.description);
    else report.fail(`create earning rule "${rule.name}"`, res, 'POST earning-rules');
  }

  if (!gatewayKey) return;
  for (const demo of DEMO_EVENTS) {
    const userId = customerIds.get(demo.external_id);
    if (!userId) continue;
    const seen = dataOf<{ items: { reference: string | null }[] }>(await apiCall('GET', `/gateway/events?user_id=${userId}&limit=100`, { gatewayKey }));
    if (seen?.items.some((event) => event.reference === demo.reference)) {
      report.ok(`event ${demo.reference} already reported`);
      continue;
    }
    const body = { user_id: userId, type: demo.type, reference: demo.reference, properties: demo.properties };
    const res = await apiCall('POST', '/gateway/events', { gatewayKey, body, idempotencyKey: onceKey(`event:${demo.reference}`, body) });
    const event = dataOf<{ xp_awarded: string }>(res);
    if (event) report.ok(`event ${demo.type} (${demo.reference}) gave ${event.xp_awarded} XP`);
    else report.fail(`event ${demo.reference}`, res, 'POST events');
  }
}
