import { describe, expect, it } from 'vitest';
import { programSettingsSchema } from '../../src/schemas/program-settings';
import { expectError, expectOk } from '../support/http';
import { tenantPath } from '../support/segments';
import { addMember, createTenant, otherTenants, portalCall, type TestMember } from '../support/world';

/** Program settings (CONTRACT.md, Program settings): defaults until saved, PUT replaces the whole document, admins write. */

const defaults = {
  timezone: 'UTC',
  points: { pending_period: null, validity: null, expiry_rounding: 'none', expiry_notice: null },
  tiers: { basis: 'lifetime', period: null, downgrade: 'none', review: 'yearly' },
};

const full = {
  timezone: 'Europe/Paris',
  points: { pending_period: 'P14D', validity: 'P1Y', expiry_rounding: 'end_of_month', expiry_notice: 'P7D' },
  tiers: { basis: 'earned_in_period', period: 'P1Y', downgrade: 'one_step', review: 'quarterly' },
};

const settingsPath = (tenantId: string) => tenantPath(tenantId, '/program-settings');
const read = async (member: TestMember, tenantId: string) => expectOk(await portalCall(member, 'GET', settingsPath(tenantId)), 200, programSettingsSchema);
const put = (member: TestMember, tenantId: string, body: unknown) => portalCall(member, 'PUT', settingsPath(tenantId), body);

describe('GET /tenant/{t}/program-settings', () => {
  it('shows every field with its default until the settings are saved, to every member role', async () => {
    const tenant = await createTenant();
    const viewer = await addMember(tenant.id, 'viewer');
    expect(await read(tenant.owner, tenant.id)).toEqual({ ...defaults, updated_at: null });
    expect(await read(viewer, tenant.id)).toEqual({ ...defaults, updated_at: null });
  });
});

describe('PUT /tenant/{t}/program-settings', () => {
  it('saves the whole document and answers it; GET shows it', async () => {
    const tenant = await createTenant();
    const saved = expectOk(await put(tenant.owner, tenant.id, full), 200, programSettingsSchema);
    expect(saved).toEqual({ ...full, updated_at: expect.any(String) });
    expect(await read(tenant.owner, tenant.id)).toEqual(saved);
  });

  it('resets what the body leaves out to its default: a whole section, or a field of one', async () => {
    const tenant = await createTenant();
    const admin = await addMember(tenant.id, 'admin');
    expectOk(await put(admin, tenant.id, full), 200, programSettingsSchema);
    const onlyZone = expectOk(await put(admin, tenant.id, { timezone: 'America/New_York' }), 200, programSettingsSchema);
    expect(onlyZone).toEqual({ ...defaults, timezone: 'America/New_York', updated_at: expect.any(String) });
    expectOk(await put(admin, tenant.id, full), 200, programSettingsSchema);
    const oneField = expectOk(await put(admin, tenant.id, { points: { validity: 'P6M' }, tiers: { review: 'monthly' } }), 200, programSettingsSchema);
    expect(oneField).toEqual({
      timezone: 'UTC',
      points: { ...defaults.points, validity: 'P6M' },
      tiers: { ...defaults.tiers, review: 'monthly' },
      updated_at: expect.any(String),
    });
    expect(expectOk(await put(admin, tenant.id, {}), 200, programSettingsSchema)).toEqual({ ...defaults, updated_at: expect.any(String) });
    expect(await read(admin, tenant.id)).toMatchObject(defaults);
  });

  it.each<[string, unknown, string]>([
    ['a time zone Intl does not know', { timezone: 'Mars/Olympus' }, 'timezone'],
    ['an offset instead of a zone', { timezone: '+02:00' }, 'timezone'],
    ['a duration under PT10S', { points: { validity: 'PT5S' } }, 'points.validity'],
    ['a duration over P10Y', { points: { pending_period: 'P11Y' } }, 'points.pending_period'],
    ['a duration that is not ISO 8601', { points: { expiry_notice: '7 days' } }, 'points.expiry_notice'],
    ['an unknown rounding', { points: { expiry_rounding: 'end_of_week' } }, 'points.expiry_rounding'],
    ['tiers on earned_in_period without a period', { tiers: { basis: 'earned_in_period' } }, 'tiers.period'],
    ['an unknown field', { timezone: 'UTC', locale: 'fr' }, 'locale'],
    ['an unknown field of a section', { tiers: { grace: 'P1D' } }, 'tiers.grace'],
  ])('answers 422 for %s, naming the field, and keeps the saved settings', async (_name, body, path) => {
    const tenant = await createTenant();
    const saved = expectOk(await put(tenant.owner, tenant.id, full), 200, programSettingsSchema);
    const error = expectError(await put(tenant.owner, tenant.id, body), 422, 'VALIDATION_FAILED');
    expect(error.errors.map((entry) => entry.path)).toEqual([path]);
    expect(await read(tenant.owner, tenant.id)).toEqual(saved);
  });

  it('refuses editors and viewers with 403 and saves nothing', async () => {
    const tenant = await createTenant();
    for (const role of ['editor', 'viewer'] as const) {
      const member = await addMember(tenant.id, role);
      expectError(await put(member, tenant.id, full), 403, 'FORBIDDEN', `Your role (${role}) may not manage program settings in this tenant`);
    }
    expect(await read(tenant.owner, tenant.id)).toEqual({ ...defaults, updated_at: null });
  });

  it("is the tenant's own: another tenant's settings (on another shard and on the same one) neither show nor change, and a non-member gets 404", async () => {
    const mine = await createTenant();
    for (const theirs of await otherTenants(mine.id)) {
      expectOk(await put(theirs.owner, theirs.id, full), 200, programSettingsSchema);
      expect(await read(mine.owner, mine.id)).toEqual({ ...defaults, updated_at: null });
      expectError(await put(mine.owner, theirs.id, { timezone: 'Asia/Tokyo' }), 404, 'NOT_FOUND', 'Tenant not found');
      expectError(await portalCall(mine.owner, 'GET', settingsPath(theirs.id)), 404, 'NOT_FOUND', 'Tenant not found');
      expect((await read(theirs.owner, theirs.id)).timezone).toBe('Europe/Paris');
    }
  });
});
