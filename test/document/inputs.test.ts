import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from '../../src/domain/email';
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

/** Ordinary addresses that some email rules get wrong: every one must pass. */
const ORDINARY_EMAILS = ['jane.doe+tag@example.co.uk', "o'brien@example.com", 'first_last-1@mail.sub.example.io'];

describe('email addresses (format: email with zod\'s email pattern)', () => {
  it.each(ORDINARY_EMAILS)('accepts %s on a customer, finds it with the filter, and on an invitation', async (email) => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const customer = await createCustomerViaApi(key, { email });
    expect(customer.email).toBe(email);
    const found = expectOk(await gatewayCall(key, 'GET', `/api/v1/gateway/customers?email=${encodeURIComponent(email)}`), 200, pageSchema(customerSchema));
    expect(found.items.map((item) => item.id)).toEqual([customer.id]);
    const invited = expectOk(await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/members`, { email, role: 'viewer' }), 201, memberSchema);
    expect(invited.email).toBe(email);
  });

  it('accepts an address in capitals (a customer\'s is stored lowercase)', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    expect((await createCustomerViaApi(key, { email: 'JANE.DOE@EXAMPLE.COM' })).email).toBe('jane.doe@example.com');
    expectOk(await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/members`, { email: 'JANE.DOE@EXAMPLE.COM', role: 'viewer' }), 201, memberSchema);
  });

  it.each([
    'plainaddress', 'a@', '@example.com', 'a b@example.com', 'a@b..c', 'a@-b.com', 'a@b_c.com', '"quoted"@example.com', 'été@example.com', `${'a'.repeat(250)}@b.co`,
    // The find (a local part of only a dot), dots where RFC 5321 has none, a label ending in "-" (zod's pattern alone lets it through, format: email does not).
    '.@o.V.1dwG9.V1.a8R0uxJ2-i', '.jane@example.com', 'jane.@example.com', 'jane..doe@example.com', 'jane@example-.com', 'jane@mail.example-',
    // Deliberately refused though RFC 5321 allows them (docs/decisions/0039-one-email-rule.md): rare local-part characters, IP literals, one-label domains.
    'iptp*@2ol19w.x0wbk9me.io', 'jane@[192.0.2.1]', 'jane@localhost',
  ])(
    'refuses %s with 422 at email (customer, filter and invitation)',
    async (email) => {
      const tenant = await createTenant();
      const key = await createTestApiKey(tenant.id);
      const customer = expectError(await gatewayCall(key, 'POST', '/api/v1/gateway/customers', { body: { external_id: 'e-1', email } }), 422, 'VALIDATION_FAILED');
      expect(customer.errors.map((entry) => entry.path)).toEqual(['email']);
      const filter = expectError(await gatewayCall(key, 'GET', `/api/v1/gateway/customers?email=${encodeURIComponent(email)}`), 422, 'VALIDATION_FAILED');
      expect(filter.errors.map((entry) => entry.path)).toEqual(['email']);
      const invitation = expectError(await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/members`, { email, role: 'viewer' }), 422, 'VALIDATION_FAILED');
      expect(invitation.errors.map((entry) => entry.path)).toEqual(['email']);
    },
  );

  it('documents the pattern it applies next to format: email, on every email it takes', async () => {
    const documented = { format: 'email', maxLength: MAX_EMAIL_LENGTH, pattern: z.regexes.email.source };
    expect(EMAIL_PATTERN).toBe(z.regexes.email);
    for (const name of ['InviteMemberBody', 'UpsertCustomerBody']) expect((await objectComponent(name)).properties.email, name).toMatchObject(documented);
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
