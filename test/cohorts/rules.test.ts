import { beforeAll, describe, expect, it } from 'vitest';
import { pageSchema } from '../../src/lib/paging';
import { attributeCreatedSchema } from '../../src/schemas/attribute';
import { cohortSchema } from '../../src/schemas/cohort';
import { successFlagSchema } from '../../src/lib/envelope';
import { expectOk } from '../support/http';
import {
  createCohort,
  defineAttribute,
  insertCustomer,
  memberIds,
  rulesOf,
  setValues,
  tenantPath,
  type PredicateInput,
} from '../support/segments';
import { insertTier } from '../support/rewards';
import { createTenant, portalCall, type TestTenant } from '../support/world';

/**
 * Matching per predicate type and op, over one read-only world built once for the file:
 *
 * | customer | nickname | score | vip | birthday | last_seen (UTC) | tags | status | country | xp / lifetime | tier |
 * | c1 | Alice | 9 | true | 1990-10-01 | 2023-12-31T23:00Z | vip, early | active | DE | 50 / 600 | Gold |
 * | c2 | alice | 10 | false | 1990-02-10 | 2024-01-01T00:30Z | late | suspended | FR | 100 / 150 | Silver |
 * | c3 | 100% real_ | 2.5 | - | 2000-01-01 | - | (empty) | pending | - | 0 / 0 | - |
 * | c4 | - | - | - | - | - | - | reinstated | DE | 500 / 500 | Gold |
 * | c5 | O'Brien'; DROP... | -1 | false | - | - | - | active | - | 0 / 99 | - |
 */
const INJECTION = "O'Brien'; DROP TABLE customers; --";
type Name = 'c1' | 'c2' | 'c3' | 'c4' | 'c5';

let tenant: TestTenant;
const ids = {} as Record<Name, string>;
const tiers = { silver: '', gold: '' };

beforeAll(async () => {
  tenant = await createTenant();
  const definitions = [
    ['nickname', 'string'],
    ['score', 'number'],
    ['vip', 'boolean'],
    ['birthday', 'date'],
    ['last_seen', 'datetime'],
    ['tags', 'string_list'],
  ] as const;
  for (const [key, type] of definitions) await defineAttribute(tenant.owner, tenant.id, key, type);
  tiers.silver = await insertTier(tenant.id, 'Silver', 100);
  tiers.gold = await insertTier(tenant.id, 'Gold', 500);
  ids.c1 = await insertCustomer(tenant.id, { status: 'active', countryCode: 'DE', xpBalance: 50, lifetimeXp: 600 });
  ids.c2 = await insertCustomer(tenant.id, { status: 'suspended', countryCode: 'FR', xpBalance: 100, lifetimeXp: 150 });
  ids.c3 = await insertCustomer(tenant.id, { status: 'pending' });
  ids.c4 = await insertCustomer(tenant.id, { status: 'reinstated', countryCode: 'DE', xpBalance: 500, lifetimeXp: 500 });
  ids.c5 = await insertCustomer(tenant.id, { status: 'active', lifetimeXp: 99 });
  await setValues(tenant.owner, tenant.id, ids.c1, {
    nickname: 'Alice',
    score: 9,
    vip: true,
    birthday: '1990-10-01',
    last_seen: '2024-01-01T01:00:00+02:00',
    tags: ['vip', 'early'],
  });
  await setValues(tenant.owner, tenant.id, ids.c2, {
    nickname: 'alice',
    score: 10,
    vip: false,
    birthday: '1990-02-10',
    last_seen: '2024-01-01T00:30:00Z',
    tags: ['late'],
  });
  await setValues(tenant.owner, tenant.id, ids.c3, { nickname: '100% real_', score: '2.5', birthday: '2000-01-01', tags: [] });
  await setValues(tenant.owner, tenant.id, ids.c5, { nickname: INJECTION, score: -1, vip: 'false' });
});

async function expectMembers(rules: ReturnType<typeof rulesOf>, expected: Name[]) {
  const cohort = await createCohort(tenant.owner, tenant.id, rules);
  expect(cohort.member_count).toBe(expected.length);
  expect(await memberIds(tenant.owner, tenant.id, cohort.id)).toEqual(expected.map((name) => ids[name]).sort());
}

const attr = (key: string, op: string, value?: string): PredicateInput => ({ type: 'attribute', key, op, ...(value === undefined ? {} : { value }) });

describe('attribute predicates', () => {
  it.each<[string, PredicateInput, Name[]]>([
    ['string eq is case-sensitive', attr('nickname', 'eq', 'Alice'), ['c1']],
    ['string neq needs a value', attr('nickname', 'neq', 'Alice'), ['c2', 'c3', 'c5']],
    ['string contains', attr('nickname', 'contains', 'lic'), ['c1', 'c2']],
    ['string contains % literally', attr('nickname', 'contains', '%'), ['c3']],
    ['string contains _ literally', attr('nickname', 'contains', '_'), ['c3']],
    ['string in', attr('nickname', 'in', '["Alice","100% real_"]'), ['c1', 'c3']],
    ['string exists', attr('nickname', 'exists'), ['c1', 'c2', 'c3', 'c5']],
    ['string not_exists', attr('nickname', 'not_exists'), ['c4']],
    ['string eq with SQL in the value matches it as data', attr('nickname', 'eq', INJECTION), ['c5']],
    ['string eq with a tautology matches nothing', attr('nickname', 'eq', "' OR '1'='1"), []],
    ['string in with SQL in the list', attr('nickname', 'in', JSON.stringify([INJECTION, "x') OR 1=1 --"])), ['c5']],
    ['number gt compares numbers (10 > 9)', attr('score', 'gt', '9'), ['c2']],
    ['number gte', attr('score', 'gte', '9'), ['c1', 'c2']],
    ['number lt', attr('score', 'lt', '2.5'), ['c5']],
    ['number lte', attr('score', 'lte', '2.5'), ['c3', 'c5']],
    ['number eq in exponent form', attr('score', 'eq', '1e1'), ['c2']],
    ['number neq', attr('score', 'neq', '10'), ['c1', 'c3', 'c5']],
    ['number in (numbers or numeric strings)', attr('score', 'in', '[9, "2.5"]'), ['c1', 'c3']],
    ['number exists', attr('score', 'exists'), ['c1', 'c2', 'c3', 'c5']],
    ['number not_exists', attr('score', 'not_exists'), ['c4']],
    ['boolean eq true', attr('vip', 'eq', 'true'), ['c1']],
    ['boolean eq false', attr('vip', 'eq', 'false'), ['c2', 'c5']],
    ['boolean neq true', attr('vip', 'neq', 'true'), ['c2', 'c5']],
    ['boolean exists', attr('vip', 'exists'), ['c1', 'c2', 'c5']],
    ['boolean not_exists', attr('vip', 'not_exists'), ['c3', 'c4']],
    ['date gt compares dates', attr('birthday', 'gt', '1990-05-01'), ['c1', 'c3']],
    ['date gte', attr('birthday', 'gte', '2000-01-01'), ['c3']],
    ['date lt', attr('birthday', 'lt', '1990-05-01'), ['c2']],
    ['date lte', attr('birthday', 'lte', '1990-10-01'), ['c1', 'c2']],
    ['date eq', attr('birthday', 'eq', '1990-02-10'), ['c2']],
    ['date neq', attr('birthday', 'neq', '1990-02-10'), ['c1', 'c3']],
    ['date not_exists', attr('birthday', 'not_exists'), ['c4', 'c5']],
    ['datetime lt compares instants across offsets', attr('last_seen', 'lt', '2024-01-01T00:00:00Z'), ['c1']],
    ['datetime gt', attr('last_seen', 'gt', '2024-01-01T00:00:00+00:00'), ['c2']],
    ['datetime eq at another offset', attr('last_seen', 'eq', '2024-01-01T02:30:00+02:00'), ['c2']],
    ['datetime gte', attr('last_seen', 'gte', '2023-12-31T23:00:00.000Z'), ['c1', 'c2']],
    ['datetime lte', attr('last_seen', 'lte', '2023-12-31T18:00:00-05:00'), ['c1']],
    ['datetime neq', attr('last_seen', 'neq', '2023-12-31T23:00:00Z'), ['c2']],
    ['datetime exists', attr('last_seen', 'exists'), ['c1', 'c2']],
    ['string_list contains', attr('tags', 'contains', 'vip'), ['c1']],
    ['string_list contains a whole element only', attr('tags', 'contains', 'ear'), []],
    ['string_list exists (an empty list is a value)', attr('tags', 'exists'), ['c1', 'c2', 'c3']],
    ['string_list not_exists', attr('tags', 'not_exists'), ['c4', 'c5']],
  ])('%s', async (_name, predicate, expected) => {
    await expectMembers(rulesOf('and', predicate), expected);
  });
});

describe('customer field predicates', () => {
  it.each<[string, () => PredicateInput, Name[]]>([
    ['tier eq Gold (threshold reached exactly)', () => ({ type: 'tier', op: 'eq', value: tiers.gold }), ['c1', 'c4']],
    ['tier eq Silver (not Gold customers)', () => ({ type: 'tier', op: 'eq', value: tiers.silver }), ['c2']],
    ['tier neq Gold needs a tier', () => ({ type: 'tier', op: 'neq', value: tiers.gold }), ['c2']],
    ['tier in', () => ({ type: 'tier', op: 'in', value: JSON.stringify([tiers.silver, tiers.gold]) }), ['c1', 'c2', 'c4']],
    ['tier exists', () => ({ type: 'tier', op: 'exists' }), ['c1', 'c2', 'c4']],
    ['tier not_exists', () => ({ type: 'tier', op: 'not_exists' }), ['c3', 'c5']],
    ['status eq', () => ({ type: 'status', op: 'eq', value: 'active' }), ['c1', 'c5']],
    ['status neq', () => ({ type: 'status', op: 'neq', value: 'active' }), ['c2', 'c3', 'c4']],
    ['status in', () => ({ type: 'status', op: 'in', value: '["pending","reinstated"]' }), ['c3', 'c4']],
    ['country eq (any case)', () => ({ type: 'country', op: 'eq', value: 'de' }), ['c1', 'c4']],
    ['country neq needs a country', () => ({ type: 'country', op: 'neq', value: 'DE' }), ['c2']],
    ['country in', () => ({ type: 'country', op: 'in', value: '["FR","DE"]' }), ['c1', 'c2', 'c4']],
    ['country exists', () => ({ type: 'country', op: 'exists' }), ['c1', 'c2', 'c4']],
    ['country not_exists', () => ({ type: 'country', op: 'not_exists' }), ['c3', 'c5']],
    ['xp_balance gt', () => ({ type: 'xp_balance', op: 'gt', value: '50' }), ['c2', 'c4']],
    ['xp_balance gte', () => ({ type: 'xp_balance', op: 'gte', value: '50' }), ['c1', 'c2', 'c4']],
    ['xp_balance eq', () => ({ type: 'xp_balance', op: 'eq', value: '0' }), ['c3', 'c5']],
    ['xp_balance neq', () => ({ type: 'xp_balance', op: 'neq', value: '0' }), ['c1', 'c2', 'c4']],
    ['lifetime_xp lt', () => ({ type: 'lifetime_xp', op: 'lt', value: '100' }), ['c3', 'c5']],
    ['lifetime_xp lte', () => ({ type: 'lifetime_xp', op: 'lte', value: '150' }), ['c2', 'c3', 'c5']],
  ])('%s', async (_name, predicate, expected) => {
    await expectMembers(rulesOf('and', predicate()), expected);
  });
});

describe('and / or', () => {
  it('and needs every predicate', async () => {
    await expectMembers(rulesOf('and', { type: 'status', op: 'eq', value: 'active' }, { type: 'tier', op: 'eq', value: tiers.gold }), ['c1']);
    await expectMembers(rulesOf('and', attr('nickname', 'not_exists'), { type: 'country', op: 'eq', value: 'DE' }), ['c4']);
  });

  it('or needs any predicate', async () => {
    await expectMembers(rulesOf('or', attr('tags', 'contains', 'late'), attr('score', 'lt', '0')), ['c2', 'c5']);
    await expectMembers(rulesOf('or', attr('nickname', 'eq', 'Alice'), attr('nickname', 'eq', 'alice')), ['c1', 'c2']);
  });
});

describe('dead keys', () => {
  it('a deleted definition is listed in dead_keys and never matches, not even not_exists', async () => {
    const own = await createTenant();
    const tempId = await defineAttribute(own.owner, own.id, 'temp', 'string');
    const active = await insertCustomer(own.id, { status: 'active' });
    const pending = await insertCustomer(own.id, { status: 'pending' });
    await setValues(own.owner, own.id, pending, { temp: 'x' });
    const absent = await createCohort(own.owner, own.id, rulesOf('and', attr('temp', 'not_exists')), 'No temp');
    const either = await createCohort(own.owner, own.id, rulesOf('or', attr('temp', 'eq', 'x'), { type: 'status', op: 'eq', value: 'active' }), 'Either');
    expect(await memberIds(own.owner, own.id, absent.id)).toEqual([active]);
    expect(await memberIds(own.owner, own.id, either.id)).toEqual([active, pending].sort());

    expectOk(await portalCall(own.owner, 'DELETE', tenantPath(own.id, `/attributes/${tempId}`)), 200, successFlagSchema);
    const list = expectOk(await portalCall(own.owner, 'GET', tenantPath(own.id, '/cohorts')), 200, pageSchema(cohortSchema));
    expect(list.items.map((c) => [c.name, c.dead_keys, c.member_count])).toEqual([
      ['Either', ['temp'], 1],
      ['No temp', ['temp'], 0],
    ]);
    expect(await memberIds(own.owner, own.id, absent.id)).toEqual([]);
    expect(await memberIds(own.owner, own.id, either.id)).toEqual([active]);
    // The rules stay as saved, and renaming does not need them to be valid again.
    const renamed = await portalCall(own.owner, 'PATCH', tenantPath(own.id, `/cohorts/${absent.id}`), { name: 'Renamed' });
    expect(expectOk(renamed, 200, cohortSchema)).toMatchObject({ dead_keys: ['temp'], rules: absent.rules, member_count: 0 });

    // Re-defining the key warns and revives the cohorts (the old values went with the old definition).
    const again = await portalCall(own.owner, 'POST', tenantPath(own.id, '/attributes'), { key: 'temp', type: 'string' });
    expect(expectOk(again, 201, attributeCreatedSchema).warning).toContain('2 existing cohorts already name "temp"');
    const revived = expectOk(await portalCall(own.owner, 'GET', tenantPath(own.id, `/cohorts/${absent.id}`)), 200, cohortSchema);
    expect(revived).toMatchObject({ dead_keys: [], member_count: 2 });
  });

  it('a key re-defined with a type its predicate no longer fits never matches', async () => {
    const own = await createTenant();
    const id = await defineAttribute(own.owner, own.id, 'level', 'string');
    const customer = await insertCustomer(own.id);
    await setValues(own.owner, own.id, customer, { level: 'high' });
    const cohort = await createCohort(own.owner, own.id, rulesOf('or', attr('level', 'contains', 'hi')));
    expect(await memberIds(own.owner, own.id, cohort.id)).toEqual([customer]);
    expectOk(await portalCall(own.owner, 'DELETE', tenantPath(own.id, `/attributes/${id}`)), 200, successFlagSchema);
    await defineAttribute(own.owner, own.id, 'level', 'number');
    await setValues(own.owner, own.id, customer, { level: 3 });
    const now = expectOk(await portalCall(own.owner, 'GET', tenantPath(own.id, `/cohorts/${cohort.id}`)), 200, cohortSchema);
    expect(now).toMatchObject({ dead_keys: [], member_count: 0 });
  });
});
