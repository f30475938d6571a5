import { describe, expect, it } from 'vitest';
import { z } from '@hono/zod-openapi';
import { successFlagSchema } from '../../src/lib/envelope';
import { pageSchema } from '../../src/lib/paging';
import { attributeCreatedSchema, attributeDefinitionSchema, attributeValueEntrySchema } from '../../src/schemas/attribute';
import { expectError, expectOk } from '../support/http';
import { createCohort, defineAttribute, insertCustomer, rulesOf, setValues, tenantPath } from '../support/segments';
import { addMember, createTenant, otherTenants, portalCall } from '../support/world';

const createPath = (tenantId: string) => tenantPath(tenantId, '/attributes');

describe('POST /tenant/{t}/attributes', () => {
  it('creates a definition: 201 with the id and no warning', async () => {
    const tenant = await createTenant();
    const res = await portalCall(tenant.owner, 'POST', createPath(tenant.id), { key: 'favorite_color', type: 'string' });
    const data = expectOk(res, 201, attributeCreatedSchema);
    expect(data).toEqual({ id: expect.stringMatching(/^atd_/) });
  });

  it.each([
    ['Favorite Color', 'favorite_color'],
    ['favoriteColor', 'favorite_color'],
    ['  shoe-size ', 'shoe_size'],
    ['VIP', 'vip'],
  ])('normalizes %j to %j and warns', async (given, normalized) => {
    const tenant = await createTenant();
    const data = expectOk(await portalCall(tenant.owner, 'POST', createPath(tenant.id), { key: given, type: 'string' }), 201, attributeCreatedSchema);
    expect(data.warning).toBe(`The key "${given}" was normalized to "${normalized}".`);
    const list = expectOk(await portalCall(tenant.owner, 'GET', createPath(tenant.id)), 200, pageSchema(attributeDefinitionSchema));
    expect(list.items.map((item) => item.key)).toEqual([normalized]);
  });

  it.each(['1st_purchase', "color'; DROP TABLE customers; --", 'a'.repeat(65), 'émoji', '___'])('refuses the key %j after normalization: 422 at key', async (key) => {
    const tenant = await createTenant();
    const body = expectError(await portalCall(tenant.owner, 'POST', createPath(tenant.id), { key, type: 'string' }), 422, 'VALIDATION_FAILED');
    expect(body.errors).toEqual([{ path: 'key', message: expect.stringContaining('snake case') }]);
  });

  it('accepts a 64-character key', async () => {
    const tenant = await createTenant();
    expectOk(await portalCall(tenant.owner, 'POST', createPath(tenant.id), { key: 'k'.repeat(64), type: 'number' }), 201, attributeCreatedSchema);
  });

  it('answers 409 for a key already defined, also when it is reached by normalization', async () => {
    const tenant = await createTenant();
    await defineAttribute(tenant.owner, tenant.id, 'favorite_color', 'string');
    const again = await portalCall(tenant.owner, 'POST', createPath(tenant.id), { key: 'favorite_color', type: 'number' });
    expect(expectError(again, 409, 'CONFLICT', 'Attribute "favorite_color" is already defined').errors).toEqual([
      { path: 'key', message: 'Attribute "favorite_color" is already defined' },
    ]);
    expectError(await portalCall(tenant.owner, 'POST', createPath(tenant.id), { key: 'Favorite Color', type: 'string' }), 409, 'CONFLICT');
  });

  it('lets two tenants define the same key (on another shard and on the same one)', async () => {
    const a = await createTenant();
    await defineAttribute(a.owner, a.id, 'tier_hint', 'string');
    // Beside a on its shard too: the uniqueness is per tenant, not per database.
    for (const b of await otherTenants(a.id)) await defineAttribute(b.owner, b.id, 'tier_hint', 'string');
  });

  it('answers 422 for an unsupported type', async () => {
    const tenant = await createTenant();
    const body = expectError(await portalCall(tenant.owner, 'POST', createPath(tenant.id), { key: 'age', type: 'integer' }), 422, 'VALIDATION_FAILED');
    expect(body.errors.map((e) => e.path)).toEqual(['type']);
  });

  it('answers 422 for unknown fields and missing ones', async () => {
    const tenant = await createTenant();
    const unknown = expectError(await portalCall(tenant.owner, 'POST', createPath(tenant.id), { key: 'a', type: 'string', tenant_id: 'x' }), 422, 'VALIDATION_FAILED');
    expect(unknown.errors).toEqual([{ path: 'tenant_id', message: 'Unknown field' }]);
    const missing = expectError(await portalCall(tenant.owner, 'POST', createPath(tenant.id), { type: 'string' }), 422, 'VALIDATION_FAILED');
    expect(missing.errors.map((e) => e.path)).toEqual(['key']);
  });

  it('refuses a viewer (403) and accepts an editor', async () => {
    const tenant = await createTenant();
    const viewer = await addMember(tenant.id, 'viewer');
    const editor = await addMember(tenant.id, 'editor');
    expectError(await portalCall(viewer, 'POST', createPath(tenant.id), { key: 'a', type: 'string' }), 403, 'FORBIDDEN');
    expectOk(await portalCall(editor, 'POST', createPath(tenant.id), { key: 'a', type: 'string' }), 201, attributeCreatedSchema);
  });

  it('answers 404 for a tenant the caller is not a member of (on another shard and on the same one)', async () => {
    const mine = await createTenant();
    for (const other of await otherTenants(mine.id)) {
      expectError(await portalCall(mine.owner, 'POST', createPath(other.id), { key: 'a', type: 'string' }), 404, 'NOT_FOUND');
    }
  });

  it('warns when saved cohorts still name a re-defined key', async () => {
    const tenant = await createTenant();
    const id = await defineAttribute(tenant.owner, tenant.id, 'plan', 'string');
    await createCohort(tenant.owner, tenant.id, rulesOf('and', { type: 'attribute', key: 'plan', op: 'eq', value: 'pro' }), 'Pro');
    await createCohort(tenant.owner, tenant.id, rulesOf('or', { type: 'attribute', key: 'plan', op: 'exists' }), 'Any plan');
    expectOk(await portalCall(tenant.owner, 'DELETE', tenantPath(tenant.id, `/attributes/${id}`)), 200, successFlagSchema);
    const again = expectOk(await portalCall(tenant.owner, 'POST', createPath(tenant.id), { key: 'Plan', type: 'string' }), 201, attributeCreatedSchema);
    expect(again.warning).toBe('The key "Plan" was normalized to "plan". 2 existing cohorts already name "plan" and will now match against this definition.');
  });
});

describe('GET /tenant/{t}/attributes', () => {
  it('pages definitions newest first, for every role', async () => {
    const tenant = await createTenant();
    const viewer = await addMember(tenant.id, 'viewer');
    for (const key of ['a', 'b', 'c']) await defineAttribute(tenant.owner, tenant.id, key, 'string');
    const first = expectOk(await portalCall(viewer, 'GET', `${createPath(tenant.id)}?limit=2`), 200, pageSchema(attributeDefinitionSchema));
    expect(first).toMatchObject({ total_count: 3, page: 1, limit: 2, total_pages: 2, has_next_page: true });
    expect(first.items.map((item) => item.key)).toEqual(['c', 'b']);
    expect(first.items[0]).toMatchObject({ type: 'string', id: expect.stringMatching(/^atd_/) });
    const second = expectOk(await portalCall(viewer, 'GET', `${createPath(tenant.id)}?limit=2&page=2`), 200, pageSchema(attributeDefinitionSchema));
    expect(second.items.map((item) => item.key)).toEqual(['a']);
  });

  it('shows only the tenant’s own definitions (others on another shard and on the same one), and 422 for a bad page size', async () => {
    const a = await createTenant();
    for (const b of await otherTenants(a.id)) {
      await defineAttribute(b.owner, b.id, 'secret', 'string');
      const list = expectOk(await portalCall(a.owner, 'GET', createPath(a.id)), 200, pageSchema(attributeDefinitionSchema));
      expect(list).toMatchObject({ items: [], total_count: 0, total_pages: 0, has_next_page: false });
      expectError(await portalCall(a.owner, 'GET', createPath(b.id)), 404, 'NOT_FOUND');
    }
    expectError(await portalCall(a.owner, 'GET', `${createPath(a.id)}?limit=101`), 422, 'VALIDATION_FAILED');
  });
});

describe('DELETE /tenant/{t}/attributes/{attributeId}', () => {
  it('deletes the definition and its values; a re-defined key starts empty', async () => {
    const tenant = await createTenant();
    const customer = await insertCustomer(tenant.id);
    const id = await defineAttribute(tenant.owner, tenant.id, 'nickname', 'string');
    await setValues(tenant.owner, tenant.id, customer, { nickname: 'Bo' });
    const res = await portalCall(tenant.owner, 'DELETE', tenantPath(tenant.id, `/attributes/${id}`));
    expect(expectOk(res, 200, successFlagSchema)).toEqual({ success: true });
    const valuesPath = tenantPath(tenant.id, `/customers/${customer}/attributes`);
    expect(expectOk(await portalCall(tenant.owner, 'GET', valuesPath), 200, z.array(attributeValueEntrySchema))).toEqual([]);
    const again = await defineAttribute(tenant.owner, tenant.id, 'nickname', 'string');
    expect(expectOk(await portalCall(tenant.owner, 'GET', valuesPath), 200, z.array(attributeValueEntrySchema))).toEqual([
      { definition_id: again, key: 'nickname', type: 'string', value: null },
    ]);
    expectError(await portalCall(tenant.owner, 'DELETE', tenantPath(tenant.id, `/attributes/${id}`)), 404, 'NOT_FOUND', 'Attribute definition not found');
  });

  it('answers 404 for a definition of another tenant (on another shard and on the same one), and leaves it alone', async () => {
    const mine = await createTenant();
    for (const other of await otherTenants(mine.id)) {
      const id = await defineAttribute(other.owner, other.id, 'nickname', 'string');
      expectError(await portalCall(mine.owner, 'DELETE', tenantPath(mine.id, `/attributes/${id}`)), 404, 'NOT_FOUND');
      const list = expectOk(await portalCall(other.owner, 'GET', createPath(other.id)), 200, pageSchema(attributeDefinitionSchema));
      expect(list.items.map((item) => item.id)).toEqual([id]);
    }
  });

  it('refuses a viewer (403)', async () => {
    const tenant = await createTenant();
    const viewer = await addMember(tenant.id, 'viewer');
    const id = await defineAttribute(tenant.owner, tenant.id, 'nickname', 'string');
    expectError(await portalCall(viewer, 'DELETE', tenantPath(tenant.id, `/attributes/${id}`)), 403, 'FORBIDDEN');
  });
});
