import { describe, expect, it } from 'vitest';
import { z } from '@hono/zod-openapi';
import { successFlagSchema } from '../../src/lib/envelope';
import { pageSchema } from '../../src/lib/paging';
import { attributeValueEntrySchema } from '../../src/schemas/attribute';
import { cohortSchema } from '../../src/schemas/cohort';
import { customerSchema } from '../../src/schemas/customer';
import { expectError, expectOk } from '../support/http';
import { insertTier } from '../support/rewards';
import { createCohort, defineAttribute, insertCustomer, memberIds, rulesOf, setValues, tenantPath } from '../support/segments';
import { addMember, createTenant, otherTenants, portalCall, type TestTenant } from '../support/world';

const planIsPro = rulesOf('and', { type: 'attribute', key: 'plan', op: 'eq', value: 'pro' });

/** `given`: a tenant to set up (from `otherTenants`: beside another on its shard, only tenant filters keep their rows apart). */
async function world(given?: TestTenant) {
  const tenant = given ?? (await createTenant());
  await defineAttribute(tenant.owner, tenant.id, 'plan', 'string');
  await defineAttribute(tenant.owner, tenant.id, 'age', 'number');
  const pro = await insertCustomer(tenant.id, { countryCode: 'DE' });
  const free = await insertCustomer(tenant.id);
  await setValues(tenant.owner, tenant.id, pro, { plan: 'pro', age: 30 });
  await setValues(tenant.owner, tenant.id, free, { plan: 'free' });
  return { tenant, pro, free };
}

describe('POST /tenant/{t}/cohorts', () => {
  it('creates a cohort: 201 with creator, exact member count and canonical rules', async () => {
    const { tenant } = await world();
    const res = await portalCall(tenant.owner, 'POST', tenantPath(tenant.id, '/cohorts'), {
      name: 'Pro in Germany',
      description: 'Paying customers in DE',
      rules: { operator: 'and', predicates: [{ type: 'attribute', key: 'plan', op: 'eq', value: 'pro' }, { type: 'country', op: 'eq', value: 'de' }] },
    });
    const cohort = expectOk(res, 201, cohortSchema);
    expect(cohort).toMatchObject({
      id: expect.stringMatching(/^coh_/),
      name: 'Pro in Germany',
      description: 'Paying customers in DE',
      created_by: tenant.owner.accountId,
      member_count: 1,
      dead_keys: [],
      rules: {
        operator: 'and',
        version: 1,
        predicates: [
          { type: 'attribute', key: 'plan', op: 'eq', value: 'pro' },
          { type: 'country', key: '', op: 'eq', value: 'de' },
        ],
      },
    });
    expect(cohort.created_at).toBe(cohort.updated_at);
  });

  it.each([
    ['an op that does not fit the attribute type', { type: 'attribute', key: 'plan', op: 'gt', value: 'a' }, 'op', 'Op gt does not fit attribute type string'],
    ['a value that is not a number', { type: 'attribute', key: 'age', op: 'gte', value: 'old' }, 'value', 'Expected a number'],
    ['an undefined key', { type: 'attribute', key: 'ghost', op: 'exists' }, 'key', 'Attribute "ghost" is not defined'],
    ['an attribute predicate without a key', { type: 'attribute', op: 'exists' }, 'key', 'needs a key'],
    ['a key on a non-attribute predicate', { type: 'status', key: 'plan', op: 'eq', value: 'active' }, 'key', 'Only attribute predicates take a key'],
    ['a value on exists', { type: 'attribute', key: 'plan', op: 'exists', value: 'x' }, 'value', 'exists takes no value'],
    ['an in value that is not a JSON array', { type: 'attribute', key: 'plan', op: 'in', value: 'pro' }, 'value', 'JSON array'],
    ['an empty in list', { type: 'attribute', key: 'plan', op: 'in', value: '[]' }, 'value', 'JSON array'],
    ['an in list with a wrong item', { type: 'attribute', key: 'age', op: 'in', value: '[1, "x"]' }, 'value', 'Item 1: Expected a number'],
    ['an unknown status', { type: 'status', op: 'eq', value: 'banned' }, 'value', 'Expected one of pending, active, suspended, reinstated'],
    ['an unknown country', { type: 'country', op: 'eq', value: 'XX' }, 'value', 'alpha-2'],
    ['a fractional XP amount', { type: 'xp_balance', op: 'gt', value: '1.5' }, 'value', 'whole XP amount'],
    ['exists on xp_balance', { type: 'lifetime_xp', op: 'exists' }, 'op', 'does not fit predicate type lifetime_xp'],
    ['a tier of no tier rule of the tenant', { type: 'tier', op: 'eq', value: 'tier_missing' }, 'value', 'No tier tier_missing'],
    ['contains on status', { type: 'status', op: 'contains', value: 'act' }, 'op', 'does not fit predicate type status'],
  ])('answers 422 at the predicate field for %s', async (_name, predicate, field, message) => {
    const { tenant } = await world();
    const rules = rulesOf('or', { type: 'status', op: 'eq', value: 'active' }, { type: 'attribute', key: 'plan', op: 'exists' }, predicate);
    const res = await portalCall(tenant.owner, 'POST', tenantPath(tenant.id, '/cohorts'), { name: 'Bad', rules });
    const body = expectError(res, 422, 'VALIDATION_FAILED');
    expect(body.errors).toEqual([{ path: `rules.predicates.2.${field}`, message: expect.stringContaining(message) }]);
  });

  it('reports every bad predicate at once', async () => {
    const { tenant } = await world();
    const rules = rulesOf('and', { type: 'attribute', key: 'plan', op: 'lt', value: 'x' }, { type: 'xp_balance', op: 'gt', value: 'lots' });
    const body = expectError(await portalCall(tenant.owner, 'POST', tenantPath(tenant.id, '/cohorts'), { name: 'Bad', rules }), 422, 'VALIDATION_FAILED');
    expect(body.errors.map((e) => e.path)).toEqual(['rules.predicates.0.op', 'rules.predicates.1.value']);
  });

  it.each([
    ['an unknown op', { name: 'x', rules: rulesOf('and', { type: 'status', op: 'like', value: 'a' }) }, 'rules.predicates.0.op'],
    ['an unknown predicate type', { name: 'x', rules: rulesOf('and', { type: 'email', op: 'eq', value: 'a' }) }, 'rules.predicates.0.type'],
    ['an unknown operator', { name: 'x', rules: rulesOf('xor' as 'and', { type: 'status', op: 'eq', value: 'active' }) }, 'rules.operator'],
    ['version 2', { name: 'x', rules: { ...rulesOf('and', { type: 'status', op: 'eq', value: 'active' }), version: 2 } }, 'rules.version'],
    ['no predicates', { name: 'x', rules: rulesOf('and') }, 'rules.predicates'],
    ['21 predicates', { name: 'x', rules: rulesOf('and', ...Array.from({ length: 21 }, () => ({ type: 'status', op: 'eq', value: 'active' }))) }, 'rules.predicates'],
    ['an unknown predicate field', { name: 'x', rules: rulesOf('and', { type: 'status', op: 'eq', value: 'active', negate: true } as never) }, 'rules.predicates.0.negate'],
    ['a blank name', { name: '  ', rules: rulesOf('and', { type: 'status', op: 'eq', value: 'active' }) }, 'name'],
    ['no rules', { name: 'x' }, 'rules'],
  ])('answers 422 for %s', async (_name, body, path) => {
    const tenant = await createTenant();
    const res = expectError(await portalCall(tenant.owner, 'POST', tenantPath(tenant.id, '/cohorts'), body), 422, 'VALIDATION_FAILED');
    expect(res.errors.map((e) => e.path)).toContain(path);
  });

  it('accepts rules without a version (version 1 is the only one)', async () => {
    const tenant = await createTenant();
    const res = await portalCall(tenant.owner, 'POST', tenantPath(tenant.id, '/cohorts'), {
      name: 'Active',
      rules: { operator: 'and', predicates: [{ type: 'status', op: 'eq', value: 'active' }] },
    });
    expect(expectOk(res, 201, cohortSchema).rules.version).toBe(1);
  });

  it('refuses a viewer (403); an editor may create', async () => {
    const tenant = await createTenant();
    const viewer = await addMember(tenant.id, 'viewer');
    const editor = await addMember(tenant.id, 'editor');
    const body = { name: 'Active', rules: rulesOf('and', { type: 'status', op: 'eq', value: 'active' }) };
    expectError(await portalCall(viewer, 'POST', tenantPath(tenant.id, '/cohorts'), body), 403, 'FORBIDDEN');
    expect(expectOk(await portalCall(editor, 'POST', tenantPath(tenant.id, '/cohorts'), body), 201, cohortSchema).created_by).toBe(editor.accountId);
  });

  it('answers 404 for a tenant the caller is not a member of (on another shard and on the same one)', async () => {
    const mine = await createTenant();
    const body = { name: 'Active', rules: rulesOf('and', { type: 'status', op: 'eq', value: 'active' }) };
    for (const other of await otherTenants(mine.id)) expectError(await portalCall(mine.owner, 'POST', tenantPath(other.id, '/cohorts'), body), 404, 'NOT_FOUND');
  });

  it('checks tier ids against the tenant: another tenant’s tier is a 422 (on another shard and on the same one)', async () => {
    const tenant = await createTenant();
    for (const other of await otherTenants(tenant.id)) {
      const foreignTier = await insertTier(other.id, 'Gold', 100);
      const res = await portalCall(tenant.owner, 'POST', tenantPath(tenant.id, '/cohorts'), { name: 'Gold', rules: rulesOf('and', { type: 'tier', op: 'eq', value: foreignTier }) });
      expect(expectError(res, 422, 'VALIDATION_FAILED').errors[0]?.path).toBe('rules.predicates.0.value');
    }
  });
});

describe('GET /tenant/{t}/cohorts and /cohorts/{id}', () => {
  it('lists newest first with member counts, for every role', async () => {
    const { tenant } = await world();
    const viewer = await addMember(tenant.id, 'viewer');
    const first = await createCohort(tenant.owner, tenant.id, planIsPro, 'Pro');
    const second = await createCohort(tenant.owner, tenant.id, rulesOf('and', { type: 'attribute', key: 'plan', op: 'exists' }), 'Any plan');
    const page = expectOk(await portalCall(viewer, 'GET', tenantPath(tenant.id, '/cohorts?limit=1')), 200, pageSchema(cohortSchema));
    expect(page).toMatchObject({ total_count: 2, total_pages: 2, has_next_page: true });
    expect(page.items.map((c) => [c.id, c.member_count])).toEqual([[second.id, 2]]);
    const next = expectOk(await portalCall(viewer, 'GET', tenantPath(tenant.id, '/cohorts?limit=1&page=2')), 200, pageSchema(cohortSchema));
    expect(next.items.map((c) => [c.id, c.member_count])).toEqual([[first.id, 1]]);
    const one = expectOk(await portalCall(viewer, 'GET', tenantPath(tenant.id, `/cohorts/${first.id}`)), 200, cohortSchema);
    expect(one).toEqual(first);
  });

  it('counts the current data, not the data at save time', async () => {
    const { tenant, free } = await world();
    const cohort = await createCohort(tenant.owner, tenant.id, planIsPro);
    await setValues(tenant.owner, tenant.id, free, { plan: 'pro' });
    const now = expectOk(await portalCall(tenant.owner, 'GET', tenantPath(tenant.id, `/cohorts/${cohort.id}`)), 200, cohortSchema);
    expect(now.member_count).toBe(2);
  });

  it('answers 404 for a cohort of another tenant and an empty list there (on another shard and on the same one)', async () => {
    const { tenant } = await world();
    const cohort = await createCohort(tenant.owner, tenant.id, planIsPro);
    for (const other of await otherTenants(tenant.id)) {
      const res = await portalCall(other.owner, 'GET', tenantPath(other.id, `/cohorts/${cohort.id}`));
      expectError(res, 404, 'NOT_FOUND', 'Cohort not found');
      const list = expectOk(await portalCall(other.owner, 'GET', tenantPath(other.id, '/cohorts')), 200, pageSchema(cohortSchema));
      expect(list).toEqual({ items: [], total_count: 0, page: 1, limit: 20, total_pages: 0, has_next_page: false });
      expectError(await portalCall(other.owner, 'GET', tenantPath(tenant.id, '/cohorts')), 404, 'NOT_FOUND');
    }
  });
});

describe('GET /tenant/{t}/cohorts paging', () => {
  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['page=0', 'page'],
    ['page=x', 'page'],
  ])('answers 422 for %s', async (query, path) => {
    const tenant = await createTenant();
    const body = expectError(await portalCall(tenant.owner, 'GET', tenantPath(tenant.id, `/cohorts?${query}`)), 422, 'VALIDATION_FAILED');
    expect(body.errors.map((e) => e.path)).toEqual([path]);
  });
});

describe('PATCH /tenant/{t}/cohorts/{id}', () => {
  it('renames without touching the rules', async () => {
    const { tenant } = await world();
    const cohort = await createCohort(tenant.owner, tenant.id, planIsPro);
    const res = await portalCall(tenant.owner, 'PATCH', tenantPath(tenant.id, `/cohorts/${cohort.id}`), { name: 'Renamed', description: 'New' });
    const updated = expectOk(res, 200, cohortSchema);
    expect(updated).toMatchObject({ name: 'Renamed', description: 'New', rules: cohort.rules, member_count: 1, created_by: cohort.created_by });
    expect(updated.updated_at >= cohort.updated_at).toBe(true);
  });

  it('replaces the rules as a whole and recounts', async () => {
    const { tenant } = await world();
    const cohort = await createCohort(tenant.owner, tenant.id, planIsPro);
    const rules = rulesOf('or', { type: 'attribute', key: 'plan', op: 'in', value: '["pro","free"]' });
    const updated = expectOk(await portalCall(tenant.owner, 'PATCH', tenantPath(tenant.id, `/cohorts/${cohort.id}`), { rules }), 200, cohortSchema);
    expect(updated.rules).toEqual({ operator: 'or', version: 1, predicates: [{ type: 'attribute', key: 'plan', op: 'in', value: '["pro","free"]' }] });
    expect(updated.member_count).toBe(2);
  });

  it('checks new rules (422 at the predicate) and keeps the old ones', async () => {
    const { tenant } = await world();
    const cohort = await createCohort(tenant.owner, tenant.id, planIsPro);
    const rules = rulesOf('and', { type: 'attribute', key: 'age', op: 'contains', value: '3' });
    const body = expectError(await portalCall(tenant.owner, 'PATCH', tenantPath(tenant.id, `/cohorts/${cohort.id}`), { rules }), 422, 'VALIDATION_FAILED');
    expect(body.errors[0]?.path).toBe('rules.predicates.0.op');
    expect(expectOk(await portalCall(tenant.owner, 'GET', tenantPath(tenant.id, `/cohorts/${cohort.id}`)), 200, cohortSchema).rules).toEqual(cohort.rules);
  });

  it('answers 422 for an empty body', async () => {
    const { tenant } = await world();
    const cohort = await createCohort(tenant.owner, tenant.id, planIsPro);
    expectError(await portalCall(tenant.owner, 'PATCH', tenantPath(tenant.id, `/cohorts/${cohort.id}`), {}), 422, 'VALIDATION_FAILED');
  });

  it('answers 404 for a cohort of another tenant (on another shard and on the same one), and 403 for a viewer', async () => {
    const { tenant } = await world();
    const cohort = await createCohort(tenant.owner, tenant.id, planIsPro);
    for (const other of await otherTenants(tenant.id)) {
      expectError(await portalCall(other.owner, 'PATCH', tenantPath(other.id, `/cohorts/${cohort.id}`), { name: 'Mine' }), 404, 'NOT_FOUND');
    }
    const viewer = await addMember(tenant.id, 'viewer');
    expectError(await portalCall(viewer, 'PATCH', tenantPath(tenant.id, `/cohorts/${cohort.id}`), { name: 'Mine' }), 403, 'FORBIDDEN');
  });
});

describe('DELETE /tenant/{t}/cohorts/{id}', () => {
  it('removes only the saved rule: customers keep their values', async () => {
    const { tenant, pro } = await world();
    const cohort = await createCohort(tenant.owner, tenant.id, planIsPro);
    expect(expectOk(await portalCall(tenant.owner, 'DELETE', tenantPath(tenant.id, `/cohorts/${cohort.id}`)), 200, successFlagSchema)).toEqual({ success: true });
    expectError(await portalCall(tenant.owner, 'GET', tenantPath(tenant.id, `/cohorts/${cohort.id}`)), 404, 'NOT_FOUND');
    const values = expectOk(await portalCall(tenant.owner, 'GET', tenantPath(tenant.id, `/customers/${pro}/attributes`)), 200, z.array(attributeValueEntrySchema));
    expect(values.find((v) => v.key === 'plan')?.value).toBe('pro');
    expectError(await portalCall(tenant.owner, 'DELETE', tenantPath(tenant.id, `/cohorts/${cohort.id}`)), 404, 'NOT_FOUND');
  });

  it('answers 404 for a cohort of another tenant (on another shard and on the same one; it survives), and 403 for a viewer', async () => {
    const { tenant } = await world();
    const cohort = await createCohort(tenant.owner, tenant.id, planIsPro);
    for (const other of await otherTenants(tenant.id)) {
      expectError(await portalCall(other.owner, 'DELETE', tenantPath(other.id, `/cohorts/${cohort.id}`)), 404, 'NOT_FOUND');
    }
    const viewer = await addMember(tenant.id, 'viewer');
    expectError(await portalCall(viewer, 'DELETE', tenantPath(tenant.id, `/cohorts/${cohort.id}`)), 403, 'FORBIDDEN');
    expectOk(await portalCall(tenant.owner, 'GET', tenantPath(tenant.id, `/cohorts/${cohort.id}`)), 200, cohortSchema);
  });
});

describe('GET /tenant/{t}/cohorts/{id}/members', () => {
  it('pages the matching customers newest first, with their tier', async () => {
    const tenant = await createTenant();
    const gold = await insertTier(tenant.id, 'Gold', 100);
    const ids: string[] = [];
    for (const lifetimeXp of [150, 10, 300]) ids.push(await insertCustomer(tenant.id, { lifetimeXp }));
    const cohort = await createCohort(tenant.owner, tenant.id, rulesOf('and', { type: 'lifetime_xp', op: 'gte', value: '100' }));
    const viewer = await addMember(tenant.id, 'viewer');
    const page = expectOk(await portalCall(viewer, 'GET', tenantPath(tenant.id, `/cohorts/${cohort.id}/members?limit=1`)), 200, pageSchema(customerSchema));
    expect(page).toMatchObject({ total_count: 2, total_pages: 2, has_next_page: true, limit: 1 });
    expect(page.items[0]?.tier).toEqual({ id: gold, tier_name: 'Gold' });
    const all = expectOk(await portalCall(viewer, 'GET', tenantPath(tenant.id, `/cohorts/${cohort.id}/members`)), 200, pageSchema(customerSchema));
    expect(new Set(all.items.map((c) => c.id))).toEqual(new Set([ids[0], ids[2]]));
  });

  it("never counts or lists another tenant's customers (on another shard and on the same one), even when they match the rules", async () => {
    const mine = await world();
    const others = [];
    for (const other of await otherTenants(mine.tenant.id)) others.push(await world(other));
    const byAttribute = await createCohort(mine.tenant.owner, mine.tenant.id, planIsPro, 'Pro');
    const byField = await createCohort(mine.tenant.owner, mine.tenant.id, rulesOf('or', { type: 'xp_balance', op: 'gte', value: '0' }), 'Everyone');
    expect(byAttribute.member_count).toBe(1);
    expect(await memberIds(mine.tenant.owner, mine.tenant.id, byAttribute.id)).toEqual([mine.pro]);
    expect(await memberIds(mine.tenant.owner, mine.tenant.id, byField.id)).toEqual([mine.pro, mine.free].sort());
    const listed = expectOk(await portalCall(mine.tenant.owner, 'GET', tenantPath(mine.tenant.id, '/cohorts')), 200, pageSchema(cohortSchema));
    expect(listed.items.map((c) => [c.name, c.member_count])).toEqual([
      ['Everyone', 2],
      ['Pro', 1],
    ]);
    for (const theirs of others) {
      expect(await memberIds(theirs.tenant.owner, theirs.tenant.id, (await createCohort(theirs.tenant.owner, theirs.tenant.id, planIsPro)).id)).toEqual([theirs.pro]);
    }
  });

  it('answers 404 for a cohort of another tenant (on another shard and on the same one), and 422 for a bad page', async () => {
    const { tenant } = await world();
    const cohort = await createCohort(tenant.owner, tenant.id, planIsPro);
    for (const other of await otherTenants(tenant.id)) {
      expectError(await portalCall(other.owner, 'GET', tenantPath(other.id, `/cohorts/${cohort.id}/members`)), 404, 'NOT_FOUND');
    }
    expectError(await portalCall(tenant.owner, 'GET', tenantPath(tenant.id, `/cohorts/${cohort.id}/members?page=0`)), 422, 'VALIDATION_FAILED');
  });
});
