import { beforeAll, describe, expect, it } from 'vitest';
import { auditedOperations, unauditedWrites } from '../../src/domain/audit';
import { call, type JsonResponse } from '../support/http';
import { createCustomerViaApi } from '../support/customers';
import { customerWithXp, insertAsset, insertReward, redeem } from '../support/rewards';
import { uploadCsv } from '../support/imports';
import { createEndpoint, deliveriesOf } from '../support/webhooks';
import { addMember, createTenant, createTestApiKey, portalCall, type TestApiKey, type TestMember, type TestTenant } from '../support/world';
import { entriesOf } from './support';

/**
 * The audit log's table test (CONTRACT.md, Operations: audit log): every portal write of the
 * OpenAPI document is audited (or listed as writing nothing), and performing each, in an order
 * where it succeeds, records exactly one entry naming the operation, the member and the target.
 */

type World = { tenant: TestTenant; key: TestApiKey; customerId: string; ids: Record<string, string>; viewer: TestMember };
type Step = { operationId: string; run: (w: World) => Promise<JsonResponse>; target: (w: World, data: { id?: string }) => string | undefined };

let w: World;
const url = (path: string) => `/api/v1/tenant/${w.tenant.id}${path}`;
const owner = () => w.tenant.owner;
const remember = (name: string) => (res: JsonResponse) => {
  w.ids[name] = (res.body as { data: { id: string } }).data.id;
  return res;
};
const post = (path: string, body?: unknown) => portalCall(owner(), 'POST', url(path), body);
const patch = (path: string, body: unknown) => portalCall(owner(), 'PATCH', url(path), body);
const put = (path: string, body: unknown) => portalCall(owner(), 'PUT', url(path), body);
const del = (path: string) => portalCall(owner(), 'DELETE', url(path));
const created = (_w: World, data: { id?: string }) => data.id;
const named = (name: string) => (world: World) => world.ids[name];
const customer = (world: World) => world.customerId;

const steps: Step[] = [
  { operationId: 'inviteMember', run: () => post('/members', { email: 'invitee@example.com', role: 'viewer' }), target: created },
  { operationId: 'updateMember', run: () => patch(`/members/${w.viewer.accountId}`, { role: 'editor' }), target: () => undefined },
  { operationId: 'removeMember', run: () => del(`/members/${w.viewer.accountId}`), target: () => undefined },
  { operationId: 'createApiKey', run: () => post('/api-keys', { name: 'audited' }).then(remember('apiKey')), target: created },
  { operationId: 'revokeApiKey', run: () => post(`/api-keys/${w.ids.apiKey}/revoke`), target: named('apiKey') },
  { operationId: 'adjustCustomerXp', run: () => post(`/customers/${w.customerId}/xp-adjustments`, { amount: '5', notes: 'goodwill' }), target: created },
  { operationId: 'createAttribute', run: () => post('/attributes', { key: 'plan', type: 'string' }).then(remember('attribute')), target: created },
  { operationId: 'setCustomerAttributes', run: () => put(`/customers/${w.customerId}/attributes`, { values: { plan: 'pro' } }), target: customer },
  { operationId: 'deleteAttribute', run: () => del(`/attributes/${w.ids.attribute}`), target: named('attribute') },
  { operationId: 'updateCustomer', run: () => patch(`/customers/${w.customerId}`, { status: 'suspended' }), target: customer },
  { operationId: 'createCohort', run: () => post('/cohorts', { name: 'Active', rules: { operator: 'and', predicates: [{ type: 'status', op: 'eq', value: 'active' }] } }).then(remember('cohort')), target: created },
  { operationId: 'updateCohort', run: () => patch(`/cohorts/${w.ids.cohort}`, { name: 'Renamed' }), target: named('cohort') },
  { operationId: 'deleteCohort', run: () => del(`/cohorts/${w.ids.cohort}`), target: named('cohort') },
  { operationId: 'createEarningRule', run: () => post('/earning-rules', { name: 'Orders', event_type: 'order.paid', effect: { kind: 'fixed', amount: '5' } }).then(remember('rule')), target: created },
  { operationId: 'updateEarningRule', run: () => patch(`/earning-rules/${w.ids.rule}`, { name: 'Paid orders' }), target: named('rule') },
  { operationId: 'deleteEarningRule', run: () => del(`/earning-rules/${w.ids.rule}`), target: named('rule') },
  { operationId: 'replaceProgramSettings', run: () => put('/program-settings', { timezone: 'Europe/Paris' }), target: (world) => world.tenant.id },
  { operationId: 'createTier', run: () => post('/tiers', { tier_name: 'Gold', min_xp_threshold: 1000 }).then(remember('tier')), target: created },
  { operationId: 'replaceTier', run: () => put(`/tiers/${w.ids.tier}`, { tier_name: 'Platinum', min_xp_threshold: 2000, benefits_description: '', color: '', icon: '' }), target: named('tier') },
  { operationId: 'deleteTier', run: () => del(`/tiers/${w.ids.tier}`), target: named('tier') },
  { operationId: 'createReward', run: () => post('/rewards', { title: 'Mug', xp_cost: '100' }).then(remember('reward')), target: created },
  { operationId: 'updateReward', run: () => patch(`/rewards/${w.ids.reward}`, { title: 'Big mug' }), target: named('reward') },
  { operationId: 'deleteReward', run: () => del(`/rewards/${w.ids.reward}`), target: named('reward') },
  { operationId: 'cancelRedemption', run: () => post(`/redemptions/${w.ids.redemption}/cancel`), target: named('redemption') },
  { operationId: 'createOnchainAsset', run: () => post('/onchain-assets', { type: 'erc721', chain_id: 31337, name: 'Badge', symbol: 'BDG' }), target: created },
  { operationId: 'updateOnchainAsset', run: () => patch(`/onchain-assets/${w.ids.asset}`, { name: 'Renamed badge' }), target: named('asset') },
  { operationId: 'deleteOnchainAsset', run: () => del(`/onchain-assets/${w.ids.asset}`), target: named('asset') },
  { operationId: 'createWebhookEndpoint', run: () => post('/webhook-endpoints', { url: 'https://hooks.example.com/a', event_types: ['customer.erased'] }).then(remember('endpoint')), target: created },
  { operationId: 'updateWebhookEndpoint', run: () => patch(`/webhook-endpoints/${w.ids.endpoint}`, { description: 'CRM' }), target: named('endpoint') },
  { operationId: 'rotateWebhookEndpointSecret', run: () => post(`/webhook-endpoints/${w.ids.endpoint}/rotate-secret`), target: named('endpoint') },
  { operationId: 'replayWebhookDelivery', run: () => post(`/webhook-endpoints/${w.ids.deliveryEndpoint}/deliveries/${w.ids.delivery}/replay`), target: named('delivery') },
  { operationId: 'deleteWebhookEndpoint', run: () => del(`/webhook-endpoints/${w.ids.endpoint}`), target: named('endpoint') },
  { operationId: 'createImport', run: () => uploadCsv(owner(), w.tenant.id, 'customers', 'external_id,email\nshop-audit,audit@example.com\n'), target: created },
  { operationId: 'createExport', run: () => post('/exports', { kind: 'customers' }), target: created },
  { operationId: 'eraseCustomer', run: () => post(`/customers/${w.customerId}/erase`), target: customer },
];

beforeAll(async () => {
  const tenant = await createTenant('audit-table');
  const key = await createTestApiKey(tenant.id);
  const customerId = await customerWithXp(tenant.id, 500);
  const viewer = await addMember(tenant.id, 'viewer');
  w = { tenant, key, customerId, viewer, ids: {} };
  const reward = await insertReward(tenant.id, { xpCost: 100 });
  w.ids.redemption = ((await redeem(key, customerId, reward.id)).body as { data: { id: string } }).data.id;
  w.ids.asset = await insertAsset(tenant.id);
  const endpoint = await createEndpoint(tenant.owner, tenant.id, 'https://hooks.example.com/created', ['customer.created']);
  await createCustomerViaApi(key);
  w.ids.deliveryEndpoint = endpoint.id;
  w.ids.delivery = (await deliveriesOf(tenant.id, endpoint.id))[0]!.id;
});

describe('the audit log of portal writes', () => {
  it('covers every write of the OpenAPI document: audited, or listed as writing nothing', async () => {
    const document = (await call('GET', '/api/v1/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string }>> };
    const writes = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/tenant/{tenantId}'))
      .flatMap(([, item]) => Object.entries(item).filter(([method]) => method !== 'get').map(([, op]) => op.operationId));
    const audited = Object.keys(auditedOperations).filter((operationId) => !operationId.startsWith('gateway'));
    expect([...writes].sort()).toEqual([...audited, ...unauditedWrites].sort());
    expect(steps.map((step) => step.operationId).sort()).toEqual([...audited].sort());
  });

  it.each(steps.map((step) => [step.operationId, step] as const))('%s records exactly one entry: the operation, the member, the target', async (operationId, step) => {
    const res = await step.run(w);
    expect(res.status, res.text).toBeLessThan(300);
    const entries = await entriesOf(w.tenant.id, res);
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry).toMatchObject({ action: operationId, actor: { type: 'account', id: w.tenant.owner.accountId, label: w.tenant.owner.email }, request_id: res.headers.get('x-request-id') });
    const target = step.target(w, (res.body as { data?: { id?: string } }).data ?? {});
    if (target !== undefined) expect(entry!.target.id).toBe(target);
  });

  it('records nothing for a write that changes nothing (a simulation)', async () => {
    const res = await post('/earning-rules/simulate', { user_id: await customerWithXp(w.tenant.id, 0), type: 'order.paid' });
    expect(res.status).toBe(200);
    expect(await entriesOf(w.tenant.id, res)).toEqual([]);
  });
});
