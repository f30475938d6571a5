/** Typed fixtures: each is a value of the API's own generated schema type. */
import type { Customer, Membership, Paged, Role, Schemas } from '../api/types';

const at = '2026-11-21T12:00:00.000Z';

export function membership(role: Role, id = 'ten_1', name = 'Acme Coffee'): Membership {
  return { tenant: { id, name, slug: name.toLowerCase().replace(/\s+/g, '-') }, role };
}

export function account(memberships: Membership[]): Schemas['CurrentAccount'] {
  return { id: 'acc_1', username: 'pm', email: 'pm@example.com', memberships };
}

export function page<T>(items: T[], pageNumber = 1, totalCount = items.length): Paged<T> {
  const limit = 20;
  const totalPages = Math.ceil(totalCount / limit);
  return { items, total_count: totalCount, page: pageNumber, limit, total_pages: totalPages, has_next_page: pageNumber < totalPages };
}

export function customer(overrides: Partial<Customer> = {}): Customer {
  return {
    id: 'cus_1', external_id: 'user-42', username: 'jane', email: 'jane@example.com', country_code: 'NL', status: 'active',
    xp_balance: '150', lifetime_xp: '1200', tier: { id: 'tier_gold', tier_name: 'Gold' }, tier_valid_until: null, created_at: at, updated_at: at, ...overrides,
  };
}

export function apiKey(overrides: Partial<Schemas['ApiKey']> = {}): Schemas['ApiKey'] {
  return {
    id: 'ak_1', key_id: 'key_abc', name: 'Production backend', label: 'prod', secret_prefix: 'sk_ab12', secret_suffix: 'wx9z',
    status: 'active', created_at: at, expires_at: null, last_used_at: null, updated_at: at, ...overrides,
  };
}

export function tier(overrides: Partial<Schemas['TierRule']> = {}): Schemas['TierRule'] {
  return {
    id: 'tier_gold', tenant_id: 'ten_1', tier_name: 'Gold', min_xp_threshold: '1000', benefits_description: 'Free shipping', color: '#FFD700', icon: '',
    tenant: { id: 'ten_1', name: 'Acme Coffee', slug: 'acme-coffee' }, created_at: at, updated_at: at, ...overrides,
  };
}

export function earningRule(overrides: Partial<Schemas['EarningRule']> = {}): Schemas['EarningRule'] {
  return {
    id: 'er_1', name: 'Orders over $20', description: '', event_type: 'order.paid', status: 'active', priority: 10, stackable: true,
    conditions: { operator: 'and', predicates: [{ type: 'property', key: 'total', op: 'gte', value: '20' }] },
    effect: { kind: 'per_unit', property: 'total', xp_per_unit: '2', unit: '1' },
    multipliers: [], limits: { per_customer: [{ period: 'week', max_times: null, max_xp: '500' }], total_xp_budget: null },
    starts_at: null, ends_at: null, counters: { times_applied: 1234, xp_awarded: '56789' }, created_at: at, updated_at: at, ...overrides,
  };
}

export function programSettings(overrides: Partial<Schemas['ProgramSettings']> = {}): Schemas['ProgramSettings'] {
  return {
    timezone: 'UTC',
    points: { pending_period: 'P14D', validity: 'P1Y', expiry_rounding: 'end_of_month', expiry_notice: null },
    tiers: { basis: 'lifetime', period: null, downgrade: 'none', review: 'yearly' },
    updated_at: null,
    ...overrides,
  };
}

export function transaction(overrides: Partial<Schemas['InternalTransaction']> = {}): Schemas['InternalTransaction'] {
  return {
    id: 'itx_1', tenant_id: 'ten_1', user_id: 'cus_1', onchain_asset_id: null, redemption_id: null, type: 'xp_earn', amount: '100', metadata: null, notes: null,
    status: 'completed', created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-20T10:00:00.000Z', ...overrides,
  };
}

export function pointLot(overrides: Partial<Schemas['PointLot']> = {}): Schemas['PointLot'] {
  return {
    id: 'lot_1', internal_transaction_id: 'itx_1', amount: '100', remaining: '100', status: 'active',
    available_at: at, expires_at: '2027-11-30T23:59:59.999Z', created_at: at, ...overrides,
  };
}
