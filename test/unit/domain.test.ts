import { describe, expect, it } from 'vitest';
import { customerStatuses, redemptionStatuses, rewardStatuses, roles, type Membership, type Role } from '../../src/db/schema';
import { periodBounds, sharePercent } from '../../src/domain/analytics';
import { effectiveStatus, generateCredential, normalizeExpiry } from '../../src/domain/api-keys';
import {
  ATTRIBUTE_KEY_PATTERN,
  normalizeAttributeKey,
  parseAttributeValue,
  parseBoolean,
  parseDate,
  parseDatetime,
  parseNumber,
  parseString,
  parseStringList,
} from '../../src/domain/attributes';
import { checkRules, resolveRules, type CohortRules, type DefinitionRef } from '../../src/domain/cohort-rules';
import { findCountry } from '../../src/domain/countries';
import { assertCustomerStatusMove, canMoveCustomerStatus, customerStatusMoves } from '../../src/domain/customer-status';
import { EARNING_STATUSES, formatXp, lifetimeDelta } from '../../src/domain/ledger';
import { assertKeepsSuperAdmin, assertMayHandleRoles, isActiveSuperAdmin } from '../../src/domain/members';
import { assertCan, can, permissions, type Permission } from '../../src/domain/permissions';
import { assertRedemptionMove, canMoveRedemption, refundedRedemptionStatuses } from '../../src/domain/redemption-status';
import { assertCanRedeem, canRedeem, type RedemptionCandidate } from '../../src/domain/redemptions';
import { assertRewardMove, rewardStatusMoves } from '../../src/domain/reward-status';
import { isEligibleForTier, tierForLifetimeXp } from '../../src/domain/tiers';
import { ApiError, type ErrorCode } from '../../src/lib/errors';
import { offsetOf, pageOf, pageQuery, pageSchema } from '../../src/lib/paging';
import { z } from '@hono/zod-openapi';

/** Asserts that `run` throws the ApiError `code` (and its status), returning it. */
function expectApiError(run: () => unknown, code: ErrorCode, message?: string | RegExp): ApiError {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ApiError);
  const error = thrown as ApiError;
  expect(error.code).toBe(code);
  if (message !== undefined) expect(error.message).toMatch(message);
  return error;
}

/** Every (from, to) pair of `states` that `allowed` accepts, as "from->to". */
const movesOf = <S extends string>(states: readonly S[], allowed: (from: S, to: S) => boolean) =>
  states.flatMap((from) => states.filter((to) => allowed(from, to)).map((to) => `${from}->${to}`));

describe('paging (lib/paging)', () => {
  const params = (page: number, limit: number) => ({ page, limit });

  it('an empty list has total_pages 0 and no next page', () => {
    expect(pageOf([], 0, params(1, 20))).toEqual({ items: [], total_count: 0, page: 1, limit: 20, total_pages: 0, has_next_page: false });
  });

  it.each([
    // total, page, limit -> total_pages, has_next_page
    [1, 1, 20, 1, false],
    [20, 1, 20, 1, false],
    [21, 1, 20, 2, true],
    [21, 2, 20, 2, false],
    [40, 2, 20, 2, false],
    [41, 2, 20, 3, true],
    [41, 3, 20, 3, false],
    [5, 9, 2, 3, false],
    [100, 1, 100, 1, false],
    [101, 1, 100, 2, true],
  ])('%i items, page %i of %i: total_pages %i, has_next_page %s', (total, page, limit, totalPages, hasNext) => {
    const result = pageOf(['x'], total, params(page, limit));
    expect(result).toEqual({ items: ['x'], total_count: total, page, limit, total_pages: totalPages, has_next_page: hasNext });
  });

  it('offsets by whole pages', () => {
    expect(offsetOf(params(1, 20))).toBe(0);
    expect(offsetOf(params(3, 20))).toBe(40);
    expect(offsetOf(params(2, 7))).toBe(7);
  });

  it('reads page and limit from the query: defaults 1 and 20, max 100, whole numbers from 1', () => {
    expect(pageQuery.parse({})).toEqual({ page: 1, limit: 20 });
    expect(pageQuery.parse({ page: '3', limit: '100' })).toEqual({ page: 3, limit: 100 });
    for (const bad of [{ limit: '0' }, { limit: '101' }, { page: '0' }, { page: '-1' }, { page: '1.5' }, { limit: 'ten' }]) {
      expect(pageQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('the page schema is strict: an unlisted field fails', () => {
    const schema = pageSchema(z.string());
    const page = pageOf(['a'], 1, params(1, 20));
    expect(schema.safeParse(page).success).toBe(true);
    expect(schema.safeParse({ ...page, next_cursor: null }).success).toBe(false);
  });
});

describe('customer status moves', () => {
  it('allows exactly pending->active, active->suspended, suspended->reinstated, reinstated->suspended', () => {
    expect(movesOf(customerStatuses, canMoveCustomerStatus).sort()).toEqual(['active->suspended', 'pending->active', 'reinstated->suspended', 'suspended->reinstated']);
    expect(Object.keys(customerStatusMoves).sort()).toEqual([...customerStatuses].sort());
  });

  it('refuses any other move, the same state included, with 409 INVALID_STATUS_TRANSITION at status', () => {
    for (const [from, to] of [['active', 'active'], ['suspended', 'active'], ['pending', 'suspended'], ['reinstated', 'active']] as const) {
      const error = expectApiError(() => assertCustomerStatusMove(from, to), 'INVALID_STATUS_TRANSITION', `Customer status cannot move from ${from} to ${to}`);
      expect(error.status).toBe(409);
      expect(error.errors).toEqual([{ path: 'status', message: error.message }]);
    }
    expect(() => assertCustomerStatusMove('pending', 'active')).not.toThrow();
  });
});

describe('redemption status moves', () => {
  it('initialized -> pending -> completed | failed; completed may be canceled; failed and canceled are final', () => {
    expect(movesOf(redemptionStatuses, canMoveRedemption).sort()).toEqual(
      ['completed->canceled', 'initialized->completed', 'initialized->failed', 'initialized->pending', 'pending->completed', 'pending->failed'].sort(),
    );
    expect([...refundedRedemptionStatuses].sort()).toEqual(['canceled', 'failed']);
  });

  it('refuses a move out of a final state with 409', () => {
    for (const from of ['failed', 'canceled'] as const) {
      expect(expectApiError(() => assertRedemptionMove(from, 'canceled'), 'INVALID_STATUS_TRANSITION', `Redemption status cannot move from ${from} to canceled`).status).toBe(409);
    }
    expect(() => assertRedemptionMove('completed', 'canceled')).not.toThrow();
  });

  it('refuses to cancel a redemption that is settling onchain, saying why', () => {
    for (const from of ['initialized', 'pending'] as const) {
      expect(expectApiError(() => assertRedemptionMove(from, 'canceled'), 'INVALID_STATUS_TRANSITION', `The redemption is ${from}: it is settling onchain`).status).toBe(409);
    }
  });
});

describe('reward status moves', () => {
  it('draft -> active | archived, active <-> archived, the same status kept, never back to draft', () => {
    const allowed = (from: (typeof rewardStatuses)[number], to: (typeof rewardStatuses)[number]) => rewardStatusMoves[from].includes(to);
    expect(movesOf(rewardStatuses, allowed).sort()).toEqual(
      ['active->active', 'active->archived', 'archived->active', 'archived->archived', 'draft->active', 'draft->archived', 'draft->draft'].sort(),
    );
    expectApiError(() => assertRewardMove('archived', 'draft'), 'INVALID_STATUS_TRANSITION', 'Reward status cannot move from archived to draft');
  });
});

describe('tiers', () => {
  const ladder = [
    { id: 'bronze', minXpThreshold: 0 },
    { id: 'silver', minXpThreshold: 100 },
    { id: 'silver-twin', minXpThreshold: 100 },
    { id: 'gold', minXpThreshold: 500 },
  ];

  it('eligibility is lifetime_xp >= threshold (the threshold itself qualifies)', () => {
    expect(isEligibleForTier(99, 100)).toBe(false);
    expect(isEligibleForTier(100, 100)).toBe(true);
    expect(isEligibleForTier(0, 0)).toBe(true);
  });

  it('the tier is the highest threshold not above lifetime_xp; the first of equal thresholds (the older) wins', () => {
    expect(tierForLifetimeXp(0, ladder)?.id).toBe('bronze');
    expect(tierForLifetimeXp(99, ladder)?.id).toBe('bronze');
    expect(tierForLifetimeXp(100, ladder)?.id).toBe('silver');
    expect(tierForLifetimeXp(499, ladder)?.id).toBe('silver');
    expect(tierForLifetimeXp(500, ladder)?.id).toBe('gold');
    expect(tierForLifetimeXp(10_000, [...ladder].reverse())?.id).toBe('gold');
  });

  it('is undefined below the lowest threshold or without tiers', () => {
    expect(tierForLifetimeXp(50, [{ id: 'silver', minXpThreshold: 100 }])).toBeUndefined();
    expect(tierForLifetimeXp(50, [])).toBeUndefined();
  });
});

describe('permissions', () => {
  it('grants exactly the contract matrix', () => {
    const matrix = Object.fromEntries((Object.keys(permissions) as Permission[]).map((permission) => [permission, roles.filter((role) => can(role, permission))]));
    expect(matrix).toEqual({
      read: ['super_admin', 'admin', 'editor', 'viewer'],
      edit_program: ['super_admin', 'admin', 'editor'],
      manage_api_keys: ['super_admin', 'admin'],
      manage_members: ['super_admin', 'admin'],
      manage_onchain_assets: ['super_admin', 'admin'],
      manage_webhooks: ['super_admin', 'admin'],
      manage_program_settings: ['super_admin', 'admin'],
      manage_personal_data: ['super_admin', 'admin'],
      run_imports_exports: ['super_admin', 'admin'],
      read_audit_log: ['super_admin', 'admin'],
      manage_super_admins: ['super_admin'],
    });
  });

  it('assertCan is a 403 FORBIDDEN naming the role and the permission', () => {
    const error = expectApiError(() => assertCan('editor', 'manage_api_keys'), 'FORBIDDEN', 'Your role (editor) may not manage api keys in this tenant');
    expect(error.status).toBe(403);
    expect(() => assertCan('admin', 'manage_api_keys')).not.toThrow();
  });
});

describe('member rules', () => {
  const membership = (role: Role, status: 'active' | 'invited' = 'active') => ({ role, status }) as Membership;

  it('counts only active super_admins', () => {
    expect(isActiveSuperAdmin(membership('super_admin'))).toBe(true);
    expect(isActiveSuperAdmin(membership('super_admin', 'invited'))).toBe(false);
    expect(isActiveSuperAdmin(membership('admin'))).toBe(false);
  });

  it('keeps the last active super_admin (400 at the given path), and only that one', () => {
    const error = expectApiError(() => assertKeepsSuperAdmin(membership('super_admin'), 1, 'role'), 'BAD_REQUEST', 'The tenant must keep at least one super_admin');
    expect(error.status).toBe(400);
    expect(error.errors).toEqual([{ path: 'role', message: error.message }]);
    expect(() => assertKeepsSuperAdmin(membership('super_admin'), 2, 'role')).not.toThrow();
    expect(() => assertKeepsSuperAdmin(membership('admin'), 1, 'role')).not.toThrow();
    expect(() => assertKeepsSuperAdmin(membership('super_admin', 'invited'), 1, 'role')).not.toThrow();
  });

  it('only a super_admin grants, changes or removes the super_admin role', () => {
    expectApiError(() => assertMayHandleRoles('admin', ['editor', 'super_admin']), 'FORBIDDEN', /Only a super_admin/);
    expect(() => assertMayHandleRoles('super_admin', ['super_admin'])).not.toThrow();
    expect(() => assertMayHandleRoles('admin', ['viewer', 'editor'])).not.toThrow();
  });
});

describe('attribute keys', () => {
  it.each([
    ['favorite_color', 'favorite_color'],
    ['Favorite Color', 'favorite_color'],
    ['favoriteColor', 'favorite_color'],
    ['  shoe-size ', 'shoe_size'],
    ['VIP', 'vip'],
    ['last  seen - at', 'last_seen_at'],
    ['orderCount2024', 'order_count2024'],
  ])('normalizes %j to %j, a valid key', (raw, normalized) => {
    expect(normalizeAttributeKey(raw)).toBe(normalized);
    expect(ATTRIBUTE_KEY_PATTERN.test(normalized)).toBe(true);
  });

  it.each(['1st_purchase', '_hidden', 'émoji', 'a'.repeat(65), '', "x'; drop"])('leaves %j invalid after normalization', (raw) => {
    expect(ATTRIBUTE_KEY_PATTERN.test(normalizeAttributeKey(raw))).toBe(false);
  });

  it('accepts 64 characters', () => {
    expect(ATTRIBUTE_KEY_PATTERN.test('k'.repeat(64))).toBe(true);
  });
});

describe('attribute values', () => {
  const ok = <T>(value: T) => ({ ok: true, value });

  it('numbers: finite JSON numbers or decimal strings', () => {
    expect(parseNumber(42.5)).toEqual(ok(42.5));
    expect(parseNumber('-3')).toEqual(ok(-3));
    expect(parseNumber('1e1')).toEqual(ok(10));
    for (const bad of ['forty', '', ' 5', '0x10', true, null, Number.POSITIVE_INFINITY, Number.NaN]) expect(parseNumber(bad).ok, String(bad)).toBe(false);
  });

  it('booleans: true/false or their strings', () => {
    expect(parseBoolean(false)).toEqual(ok(false));
    expect(parseBoolean('true')).toEqual(ok(true));
    for (const bad of ['yes', 1, 'TRUE', null]) expect(parseBoolean(bad).ok, String(bad)).toBe(false);
  });

  it('dates: YYYY-MM-DD of a real calendar day', () => {
    expect(parseDate('2024-02-29')).toEqual(ok('2024-02-29'));
    expect(parseDate('2000-02-29')).toEqual(ok('2000-02-29'));
    for (const bad of ['2023-02-29', '1900-02-29', '2024-04-31', '2024-13-01', '01/02/2023', '2024-1-1', 20240101]) expect(parseDate(bad).ok, String(bad)).toBe(false);
  });

  it('datetimes: need a time and an offset, stored as fixed-width UTC', () => {
    expect(parseDatetime('2024-05-01T12:30:00+02:00')).toEqual(ok('2024-05-01T10:30:00.000Z'));
    expect(parseDatetime('2024-05-01T12:30Z')).toEqual(ok('2024-05-01T12:30:00.000Z'));
    expect(parseDatetime('2024-05-01T12:30:00.123456Z')).toEqual(ok('2024-05-01T12:30:00.123Z'));
    for (const bad of ['2024-05-01T12:30:00', '2024-05-01', '2024-13-01T00:00:00Z', '0000-01-01T00:00:00+01:00', 5]) expect(parseDatetime(bad).ok, String(bad)).toBe(false);
    // Impossible calendar values are refused, never rolled over into another day.
    for (const impossible of ['2024-02-30T10:00:00Z', '2024-04-31T12:00:00Z', '2023-02-29T00:00:00+01:00', '2024-05-01T24:00:00Z', '2024-05-01T12:60:00Z', '2024-05-01T12:00:60Z', '2024-05-01T12:00:00+24:00']) {
      expect(parseDatetime(impossible).ok, impossible).toBe(false);
    }
    expect(parseDatetime('2024-02-29T23:59:59-01:00')).toEqual(ok('2024-03-01T00:59:59.000Z'));
  });

  it('strings up to 1024 characters; lists of up to 100 strings, as an array or its JSON text', () => {
    expect(parseString('x'.repeat(1024)).ok).toBe(true);
    expect(parseString('x'.repeat(1025)).ok).toBe(false);
    expect(parseString(1).ok).toBe(false);
    expect(parseStringList(['a', 'b'])).toEqual(ok(['a', 'b']));
    expect(parseStringList('["a"]')).toEqual(ok(['a']));
    expect(parseStringList([])).toEqual(ok([]));
    for (const bad of ['vip', ['a', 1], Array.from({ length: 101 }, () => 'x'), ['x'.repeat(1025)], '{"a":1}']) expect(parseStringList(bad).ok).toBe(false);
  });

  it('stores numbers and booleans as numbers, everything else as text', () => {
    expect(parseAttributeValue('number', '42')).toEqual(ok({ valueText: null, valueNumber: 42 }));
    expect(parseAttributeValue('boolean', true)).toEqual(ok({ valueText: null, valueNumber: 1 }));
    expect(parseAttributeValue('boolean', 'false')).toEqual(ok({ valueText: null, valueNumber: 0 }));
    expect(parseAttributeValue('string', 'Bo')).toEqual(ok({ valueText: 'Bo', valueNumber: null }));
    expect(parseAttributeValue('date', '1990-02-28')).toEqual(ok({ valueText: '1990-02-28', valueNumber: null }));
    expect(parseAttributeValue('datetime', '2024-01-01T01:00:00+02:00')).toEqual(ok({ valueText: '2023-12-31T23:00:00.000Z', valueNumber: null }));
    expect(parseAttributeValue('string_list', '["a", "b"]')).toEqual(ok({ valueText: '["a","b"]', valueNumber: null }));
    expect(parseAttributeValue('number', 'x')).toEqual({ ok: false, message: 'Expected a number' });
  });
});

describe('cohort rules', () => {
  const definitions: ReadonlyMap<string, DefinitionRef> = new Map([
    ['plan', { id: 'atd_plan', type: 'string' }],
    ['age', { id: 'atd_age', type: 'number' }],
  ]);
  const rules = (...predicates: CohortRules['predicates']): CohortRules => ({ operator: 'and', predicates, version: 1 });

  it('resolves fitting predicates to typed comparisons', () => {
    const resolved = checkRules(
      rules(
        { type: 'attribute', key: 'age', op: 'in', value: '[1, "2.5"]' },
        { type: 'country', key: '', op: 'eq', value: 'de' },
        { type: 'xp_balance', key: '', op: 'gte', value: '100' },
        { type: 'attribute', key: 'plan', op: 'not_exists', value: '' },
      ),
      { definitions },
    );
    expect(resolved.predicates).toEqual([
      { kind: 'attribute', definitionId: 'atd_age', storage: 'number', comparison: { op: 'in', operand: [1, 2.5] } },
      { kind: 'field', field: 'country', comparison: { op: 'eq', operand: 'DE' } },
      { kind: 'field', field: 'xp_balance', comparison: { op: 'gte', operand: 100 } },
      { kind: 'attribute', definitionId: 'atd_plan', storage: 'text', comparison: { op: 'not_exists' } },
    ]);
  });

  it('reports every failing predicate at its field (422)', () => {
    const error = expectApiError(
      () =>
        checkRules(
          rules(
            { type: 'attribute', key: 'plan', op: 'gt', value: 'a' },
            { type: 'attribute', key: 'ghost', op: 'exists', value: '' },
            { type: 'status', key: '', op: 'eq', value: 'banned' },
            { type: 'tier', key: '', op: 'eq', value: 'tier_other' },
          ),
          { definitions, tierIds: new Set(['tier_mine']) },
        ),
      'VALIDATION_FAILED',
    );
    expect(error.errors.map((e) => e.path)).toEqual(['rules.predicates.0.op', 'rules.predicates.1.key', 'rules.predicates.2.value', 'rules.predicates.3.value']);
  });

  // dead_keys are maintained in SQL (src/db/sql/cohort-recomputes.sql), tested through the API in test/cohorts/rules.test.ts.
  it('at read time a dead key never matches', () => {
    const saved = rules({ type: 'attribute', key: 'plan', op: 'eq', value: 'pro' }, { type: 'attribute', key: 'age', op: 'gt', value: '3' });
    const withoutPlan = new Map([...definitions].filter(([key]) => key !== 'plan'));
    expect(resolveRules(saved, { definitions: withoutPlan }).predicates[0]).toEqual({ kind: 'never' });
    // Re-defined with a type the op does not fit: never matches, but is not dead.
    const retyped = new Map(definitions).set('age', { id: 'atd_age2', type: 'string' });
    expect(resolveRules(saved, { definitions: retyped }).predicates[1]).toEqual({ kind: 'never' });
  });
});

describe('ledger rules', () => {
  it('lifetime XP grows with earn, bonus and positive adjustments only', () => {
    expect(lifetimeDelta('xp_earn', 50)).toBe(50);
    expect(lifetimeDelta('xp_bonus', 5)).toBe(5);
    expect(lifetimeDelta('xp_admin_adjust', 20)).toBe(20);
    expect(lifetimeDelta('xp_admin_adjust', -20)).toBe(0);
    expect(lifetimeDelta('xp_redeem', -100)).toBe(0);
    // A refund (a positive redeem entry) gives back balance, not lifetime XP.
    expect(lifetimeDelta('xp_redeem', 100)).toBe(0);
  });

  it('formats whole amounts as strings', () => {
    expect([formatXp(150), formatXp(-20), formatXp(0)]).toEqual(['150', '-20', '0']);
  });

  it('only active and reinstated customers earn or redeem', () => {
    expect([...EARNING_STATUSES].sort()).toEqual(['active', 'reinstated']);
    expect(customerStatuses.filter(canRedeem).sort()).toEqual(['active', 'reinstated']);
  });
});

describe('redemption checks (domain/redemptions)', () => {
  const candidate = (overrides: { customer?: Partial<RedemptionCandidate['customer']>; reward?: Partial<RedemptionCandidate['reward']>; minTier?: RedemptionCandidate['minTier'] } = {}): RedemptionCandidate => ({
    // Placed by lifetime XP unless a test holds a tier: the standing is then the lifetime XP.
    customer: ((customer) => ({ ...customer, tierStandingXp: overrides.customer?.tierStandingXp ?? customer.lifetimeXp }))({
      status: 'active' as const,
      xpBalance: 100,
      lifetimeXp: 100,
      tierHeld: false,
      ...overrides.customer,
    }),
    reward: { status: 'active', stock: null, xpCost: 100, minTierId: null, ...overrides.reward },
    minTier: overrides.minTier,
  });

  it('passes with a balance exactly the cost, unlimited stock and no tier', () => {
    expect(() => assertCanRedeem(candidate())).not.toThrow();
  });

  it('checks in order: customer, reward, stock, tier, balance', () => {
    const everythingWrong = { customer: { status: 'suspended', xpBalance: 0, lifetimeXp: 0 }, reward: { status: 'archived', stock: 0, xpCost: 500, minTierId: 'tier_gold' } } as const;
    expectApiError(() => assertCanRedeem(candidate(everythingWrong)), 'CUSTOMER_NOT_ACTIVE');
    expectApiError(() => assertCanRedeem(candidate({ ...everythingWrong, customer: { status: 'reinstated', xpBalance: 0, lifetimeXp: 0 } })), 'REWARD_NOT_ACTIVE');
    expectApiError(() => assertCanRedeem(candidate({ customer: { xpBalance: 0, lifetimeXp: 0 }, reward: { stock: 0, xpCost: 500, minTierId: 'tier_gold' } })), 'OUT_OF_STOCK');
    expectApiError(
      () => assertCanRedeem(candidate({ customer: { xpBalance: 0, lifetimeXp: 99 }, reward: { stock: 1, xpCost: 500, minTierId: 'tier_gold' }, minTier: { tierName: 'Gold', minXpThreshold: 100 } })),
      'NOT_ELIGIBLE',
      'The reward requires tier Gold (100 lifetime XP); the customer has 99',
    );
    expectApiError(() => assertCanRedeem(candidate({ customer: { xpBalance: 99 } })), 'INSUFFICIENT_XP', "The reward costs 100 XP; the customer's balance is 99");
  });

  it('fails closed when the minimum tier no longer exists', () => {
    expectApiError(() => assertCanRedeem(candidate({ customer: { lifetimeXp: 10_000 }, reward: { minTierId: 'tier_deleted' } })), 'NOT_ELIGIBLE', 'The reward requires a tier that no longer exists');
  });

  it('a held tier (earned_in_period) is judged by its threshold, not by lifetime XP', () => {
    const gold = { reward: { minTierId: 'tier_gold' }, minTier: { tierName: 'Gold', minXpThreshold: 100 } };
    expect(() => assertCanRedeem(candidate({ customer: { lifetimeXp: 0, tierHeld: true, tierStandingXp: 100 }, ...gold }))).not.toThrow();
    expectApiError(
      () => assertCanRedeem(candidate({ customer: { lifetimeXp: 5_000, tierHeld: true, tierStandingXp: 50 }, ...gold })),
      'NOT_ELIGIBLE',
      'The reward requires tier Gold (100 XP); the tier the customer holds until its review is below it',
    );
  });

  it('uses lifetime XP, not the balance, for the tier', () => {
    expect(() => assertCanRedeem(candidate({ customer: { xpBalance: 100, lifetimeXp: 100 }, reward: { minTierId: 'tier_gold' }, minTier: { tierName: 'Gold', minXpThreshold: 100 } }))).not.toThrow();
  });
});

describe('API key rules', () => {
  const now = '2026-06-01T12:00:00.000Z';

  it('revoked wins over expired; expiry is at expires_at itself', () => {
    expect(effectiveStatus({ status: 'revoked', expiresAt: '2020-01-01T00:00:00.000Z' }, now)).toBe('revoked');
    expect(effectiveStatus({ status: 'active', expiresAt: now }, now)).toBe('expired');
    expect(effectiveStatus({ status: 'active', expiresAt: '2026-06-01T12:00:00.001Z' }, now)).toBe('active');
    expect(effectiveStatus({ status: 'active', expiresAt: null }, now)).toBe('active');
  });

  it('normalizes expiry to toISOString() UTC so that text order is time order', () => {
    expect(normalizeExpiry('2099-01-01T02:00:00+02:00')).toBe('2099-01-01T00:00:00.000Z');
    expect(normalizeExpiry(undefined)).toBeNull();
  });

  it('generates a key id and a 256-bit secret whose prefix and suffix are shown', () => {
    const a = generateCredential();
    const b = generateCredential();
    expect(a.keyId).toMatch(/^key_[a-z2-7]{20}$/);
    expect(a.secret).toMatch(/^sk_[a-z2-7]{52}$/);
    expect(a.secretPrefix).toBe(a.secret.slice(0, 7));
    expect(a.secretSuffix).toBe(a.secret.slice(-4));
    expect(b.secret).not.toBe(a.secret);
    expect(b.keyId).not.toBe(a.keyId);
  });
});

describe('analytics rules', () => {
  it('shares round half up to 2 decimals; an empty total has no shares', () => {
    expect([sharePercent(1, 3), sharePercent(2, 3), sharePercent(1, 32), sharePercent(1, 8), sharePercent(3, 3), sharePercent(0, 0)]).toEqual([33.33, 66.67, 3.13, 12.5, 100, 0]);
  });

  it('a date is the whole UTC day, a date-time is exact; from after to is a 422 at to', () => {
    expect(periodBounds('2026-01-31', '2026-01-31')).toEqual({ from: '2026-01-31T00:00:00.000Z', to: '2026-01-31T23:59:59.999Z' });
    expect(periodBounds('2026-01-31T10:00:00+02:00', undefined)).toEqual({ from: '2026-01-31T08:00:00.000Z', to: undefined });
    const error = expectApiError(() => periodBounds('2026-02-01', '2026-01-31'), 'VALIDATION_FAILED');
    expect(error.errors).toEqual([{ path: 'to', message: 'Must not be before from' }]);
  });
});

describe('countries', () => {
  it('finds ISO 3166-1 alpha-2 codes in any case, nothing else', () => {
    expect(findCountry('de')).toEqual({ code: 'DE', name: 'Germany' });
    expect(findCountry('NL')?.name).toBe('Netherlands');
    expect(findCountry('XX')).toBeUndefined();
    expect(findCountry('DEU')).toBeUndefined();
  });
});
