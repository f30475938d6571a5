import { describe, expect, it } from 'vitest';
import { masterdataSchema } from '../../src/schemas/masterdata';
import { call, expectOk } from '../support/http';

describe('GET /system/masterdata', () => {
  it('answers without a token, with every enumeration of the API', async () => {
    const res = await call('GET', '/api/v1/system/masterdata');
    const data = expectOk(res, 200, masterdataSchema);
    expect(data.transaction_types).toEqual(['xp_earn', 'xp_bonus', 'xp_admin_adjust', 'xp_redeem', 'xp_expire', 'xp_reversal']);
    expect(data.transaction_statuses).toEqual(['initialized', 'pending', 'completed', 'failed']);
    expect(data.customer_statuses).toEqual(['pending', 'active', 'suspended', 'reinstated']);
    expect(data.attribute_types).toEqual(['string', 'number', 'boolean', 'date', 'datetime', 'string_list']);
    expect(data.cohort_ops).toEqual(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'in', 'exists', 'not_exists']);
    expect(data.roles).toEqual(['super_admin', 'admin', 'editor', 'viewer']);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('lists the ISO 3166-1 countries by English name, id and code being alpha-2, with a flag icon', async () => {
    const { countries } = expectOk(await call('GET', '/api/v1/system/masterdata'), 200, masterdataSchema);
    expect(countries.length).toBeGreaterThanOrEqual(249);
    expect(new Set(countries.map((c) => c.id)).size).toBe(countries.length);
    for (const country of countries) {
      expect(country.id).toMatch(/^[A-Z]{2}$/);
      expect(country.code).toBe(country.id);
      expect(country.icon_url).toBe(`https://flagcdn.com/${country.code.toLowerCase()}.svg`);
      expect(country.status).toBe('active');
    }
    expect(countries.find((c) => c.code === 'NL')?.name).toBe('Netherlands');
    expect(countries.find((c) => c.code === 'DE')?.name).toBe('Germany');
    expect(countries.find((c) => c.code === 'US')?.name).toBe('United States of America');
    const names = countries.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  });
});
