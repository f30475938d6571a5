import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cohorts } from '../../src/db/schema';
import { MAX_CONTAINS_LENGTH, MAX_IN_ITEMS } from '../../src/domain/cohort-ops';
import { newId } from '../../src/lib/ids';
import { cohortSchema, MAX_COHORTS_PER_TENANT, MAX_PREDICATE_VALUE_LENGTH, MAX_PREDICATES } from '../../src/schemas/cohort';
import { expectError, expectOk } from '../support/http';
import { portalRequest, race } from '../support/race';
import { defineAttribute, rulesOf, tenantPath, type PredicateInput } from '../support/segments';
import { createTenant, db, portalCall, type TestTenant } from '../support/world';

/**
 * Rule-size limits (docs/decisions/0048-cohort-rule-limits.md): they bound what evaluating one cohort
 * for one customer costs, and so what every write costs to keep member counts exact. Past each,
 * a 422 names the field.
 */

async function withAttributes() {
  const tenant = await createTenant();
  await defineAttribute(tenant.owner, tenant.id, 'bio', 'string');
  await defineAttribute(tenant.owner, tenant.id, 'tags', 'string_list');
  return tenant;
}

const create = (tenant: TestTenant, rules: unknown) => portalCall(tenant.owner, 'POST', tenantPath(tenant.id, '/cohorts'), { name: 'Limits', rules });

describe('rule-size limits', () => {
  it.each<[string, PredicateInput, string]>([
    [`a value of ${MAX_PREDICATE_VALUE_LENGTH + 1} characters`, { type: 'attribute', key: 'bio', op: 'eq', value: 'x'.repeat(MAX_PREDICATE_VALUE_LENGTH + 1) }, 'rules.predicates.0.value'],
    [`a contains operand of ${MAX_CONTAINS_LENGTH + 1} characters`, { type: 'attribute', key: 'bio', op: 'contains', value: 'x'.repeat(MAX_CONTAINS_LENGTH + 1) }, 'rules.predicates.0.value'],
    ['a list contains operand past the limit', { type: 'attribute', key: 'tags', op: 'contains', value: 'x'.repeat(MAX_CONTAINS_LENGTH + 1) }, 'rules.predicates.0.value'],
    [`an in list of ${MAX_IN_ITEMS + 1} values`, { type: 'attribute', key: 'bio', op: 'in', value: JSON.stringify(Array.from({ length: MAX_IN_ITEMS + 1 }, (_, i) => `v${i}`)) }, 'rules.predicates.0.value'],
  ])('answers 422 for %s', async (_name, predicate, path) => {
    const tenant = await withAttributes();
    const body = expectError(await create(tenant, rulesOf('and', predicate)), 422, 'VALIDATION_FAILED');
    expect(body.errors.map((error) => error.path)).toEqual([path]);
  });

  it(`answers 422 for ${MAX_PREDICATES + 1} predicates, on PATCH too`, async () => {
    const tenant = await withAttributes();
    const one: PredicateInput = { type: 'attribute', key: 'bio', op: 'contains', value: 'a' };
    const saved = expectOk(await create(tenant, rulesOf('or', ...Array.from({ length: MAX_PREDICATES }, () => one))), 201, cohortSchema);
    const patch = await portalCall(tenant.owner, 'PATCH', tenantPath(tenant.id, `/cohorts/${saved.id}`), { rules: rulesOf('or', ...Array.from({ length: MAX_PREDICATES + 1 }, () => one)) });
    expect(expectError(patch, 422, 'VALIDATION_FAILED').errors.map((error) => error.path)).toEqual(['rules.predicates']);
  });

  it('accepts every limit reached exactly', async () => {
    const tenant = await withAttributes();
    const rules = rulesOf(
      'or',
      { type: 'attribute', key: 'bio', op: 'contains', value: 'x'.repeat(MAX_CONTAINS_LENGTH) },
      { type: 'attribute', key: 'bio', op: 'in', value: JSON.stringify(Array.from({ length: MAX_IN_ITEMS }, (_, i) => `v${i}`)) },
    );
    expectOk(await create(tenant, rules), 201, cohortSchema);
  });
});

describe(`at most ${MAX_COHORTS_PER_TENANT} cohorts per tenant`, () => {
  /** Saved rules as rows (the limit counts rows; these fixtures need no compiling to count). */
  async function fillTo(tenantId: string, total: number) {
    const rows = Array.from({ length: total }, () => ({ id: newId('coh'), tenantId, name: 'Filler', rules: rulesOf('and', { type: 'status', op: 'eq', value: 'active' }), createdBy: 'acc_fixture' }));
    // D1 binds at most 100 parameters per statement: 10 rows each.
    const [first, ...rest] = Array.from({ length: Math.ceil(total / 10) }, (_, i) => db(tenantId).insert(cohorts).values(rows.slice(i * 10, i * 10 + 10)));
    if (first) await db(tenantId).batch([first, ...rest]);
  }
  const tenantCohorts = async (tenantId: string) => (await db(tenantId).select({ value: count() }).from(cohorts).where(eq(cohorts.tenantId, tenantId)))[0]?.value;
  const active = rulesOf('and', { type: 'status', op: 'eq', value: 'active' });

  it('answers 422 past the limit and stores nothing', async () => {
    const tenant = await createTenant();
    await fillTo(tenant.id, MAX_COHORTS_PER_TENANT);
    expectError(await create(tenant, active), 422, 'VALIDATION_FAILED', `at most ${MAX_COHORTS_PER_TENANT} cohorts`);
    expect(await tenantCohorts(tenant.id)).toBe(MAX_COHORTS_PER_TENANT);
  });

  it('gives the last place to exactly one of two creations racing for it', async () => {
    const tenant = await createTenant();
    await fillTo(tenant.id, MAX_COHORTS_PER_TENANT - 1);
    const request = () => portalRequest(tenant.owner, 'POST', tenantPath(tenant.id, '/cohorts'), { name: 'Racer', rules: active });
    const { responses, held } = await race([request(), request()], /insert into "cohorts"/i);
    expect(held).toBe(2);
    expect(responses.map((res) => res.status).sort()).toEqual([201, 422]);
    expect(await tenantCohorts(tenant.id)).toBe(MAX_COHORTS_PER_TENANT);
  });
});
