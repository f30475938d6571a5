import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { pageSchema } from '../../src/lib/paging';
import { customerSchema } from '../../src/schemas/customer';
import { memberSchema } from '../../src/schemas/member';
import { onchainAssetSchema } from '../../src/schemas/internal-transaction';
import { rewardSchema } from '../../src/schemas/reward';
import { createCustomerViaApi } from '../support/customers';
import { expectError, expectOk } from '../support/http';
import { objectComponent } from '../support/openapi';
import { insertAsset, insertReward } from '../support/rewards';
import { createTenant, createTestApiKey, gatewayCall, portalCall } from '../support/world';

/*
 * The request side of "the document must be the truth": what the schema allows is accepted, and
 * what it forbids is refused.
 */

/** RFC 5322-valid and valid by the WHATWG rule the document's pattern states. */
const UNUSUAL_VALID_EMAIL = 'iptp*@2ol19w.x0wbk9me.io';

describe('email addresses (format: email with the WHATWG pattern)', () => {
  it(`accepts ${UNUSUAL_VALID_EMAIL} on a customer, finds it with the filter, and on an invitation`, async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const customer = await createCustomerViaApi(key, { email: UNUSUAL_VALID_EMAIL });
    expect(customer.email).toBe(UNUSUAL_VALID_EMAIL);
    const found = expectOk(await gatewayCall(key, 'GET', `/api/v1/gateway/customers?email=${encodeURIComponent(UNUSUAL_VALID_EMAIL)}`), 200, pageSchema(customerSchema));
    expect(found.items.map((item) => item.id)).toEqual([customer.id]);
    const invited = expectOk(await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/members`, { email: UNUSUAL_VALID_EMAIL, role: 'viewer' }), 201, memberSchema);
    expect(invited.email).toBe(UNUSUAL_VALID_EMAIL);
  });

  it.each(['plainaddress', 'a@', '@example.com', 'a b@example.com', 'a@b..c', 'a@-b.com', 'a@b_c.com', '"quoted"@example.com', 'été@example.com', `${'a'.repeat(250)}@b.co`])(
    'refuses %s with 422 at email (customer and invitation)',
    async (email) => {
      const tenant = await createTenant();
      const key = await createTestApiKey(tenant.id);
      const customer = expectError(await gatewayCall(key, 'POST', '/api/v1/gateway/customers', { body: { external_id: 'e-1', email } }), 422, 'VALIDATION_FAILED');
      expect(customer.errors.map((entry) => entry.path)).toEqual(['email']);
      const invitation = expectError(await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/members`, { email, role: 'viewer' }), 422, 'VALIDATION_FAILED');
      expect(invitation.errors.map((entry) => entry.path)).toEqual(['email']);
    },
  );

  it('documents the pattern it applies next to format: email', async () => {
    const email = (await objectComponent('InviteMemberBody')).properties.email;
    expect(email).toMatchObject({ format: 'email', pattern: z.regexes.html5Email.source });
  });
});

describe('at least one field (minProperties: 1)', () => {
  it('PATCH with an empty body is a 422, and the document says minProperties 1', async () => {
    const tenant = await createTenant();
    const reward = await insertReward(tenant.id);
    const assetId = await insertAsset(tenant.id);
    expectError(await portalCall(tenant.owner, 'PATCH', `/api/v1/tenant/${tenant.id}/rewards/${reward.id}`, {}), 422, 'VALIDATION_FAILED', 'not valid');
    expectError(await portalCall(tenant.owner, 'PATCH', `/api/v1/tenant/${tenant.id}/onchain-assets/${assetId}`, {}), 422, 'VALIDATION_FAILED');
    for (const name of ['UpdateRewardBody', 'UpdateOnchainAssetBody']) expect(await objectComponent(name), name).toMatchObject({ minProperties: 1 });
  });

  it('PUT attributes with {"values":{}} is a 422 on both surfaces, and the document says minProperties 1', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const customer = await createCustomerViaApi(key);
    const portal = await portalCall(tenant.owner, 'PUT', `/api/v1/tenant/${tenant.id}/customers/${customer.id}/attributes`, { values: {} });
    expect(expectError(portal, 422, 'VALIDATION_FAILED').errors.map((entry) => entry.path)).toEqual(['values']);
    const gateway = await gatewayCall(key, 'PUT', `/api/v1/gateway/customers/${customer.id}/attributes`, { body: { values: {} } });
    expect(expectError(gateway, 422, 'VALIDATION_FAILED').errors.map((entry) => entry.path)).toEqual(['values']);
    expect((await objectComponent('SetAttributeValuesBody')).properties.values).toMatchObject({ minProperties: 1, maxProperties: 100 });
  });
});

describe('metadata: any JSON, null included', () => {
  it('is documented without a type (any JSON) and required wherever the spec requires it', async () => {
    for (const name of ['Reward', 'InternalTransaction', 'RewardSummary', 'CreateRewardBody', 'EarnXpBody', 'UpdateOnchainAssetBody']) {
      const schema = await objectComponent(name);
      expect(schema.properties.metadata, name).not.toHaveProperty('type');
    }
    for (const name of ['Reward', 'InternalTransaction']) expect((await objectComponent(name)).required, name).toContain('metadata');
  });

  it('answers null when none was given, and stores any JSON value as sent (reward and onchain asset)', async () => {
    const tenant = await createTenant();
    const rewards = `/api/v1/tenant/${tenant.id}/rewards`;
    expect(expectOk(await portalCall(tenant.owner, 'POST', rewards, { title: 'Coffee', xp_cost: '10' }), 201, rewardSchema).metadata).toBeNull();
    for (const metadata of ['a note', [1, 2], 7, true, { sku: 'C-1' }]) {
      expect(expectOk(await portalCall(tenant.owner, 'POST', rewards, { title: 'Coffee', xp_cost: '10', metadata }), 201, rewardSchema).metadata).toEqual(metadata);
    }
    const assetId = await insertAsset(tenant.id);
    const asset = expectOk(await portalCall(tenant.owner, 'PATCH', `/api/v1/tenant/${tenant.id}/onchain-assets/${assetId}`, { metadata: ['gold'] }), 200, onchainAssetSchema);
    expect(asset.metadata).toEqual(['gold']);
  });
});
