import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pageSchema } from '../../src/lib/paging';
import { memberships } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { apiKeySchema } from '../../src/schemas/api-key';
import { memberSchema } from '../../src/schemas/member';
import { tierRuleSchema } from '../../src/schemas/tier';
import { measured, type D1Cost } from '../cohorts/counting-d1';
import { BASE, expectError, expectOk } from '../support/http';
import { addMember, createTenant, directory, otherTenants, portalCall, type TestMember } from '../support/world';

/**
 * A portal read by a member this isolate already confirmed skips the sign-in round trip: its
 * membership check runs in the directory while the route reads the tenant's shard
 * (src/data/member-cache.ts, middleware/portal-auth.ts). Whatever changed since must still decide
 * the answer at once: the request then goes down the full path.
 */

const read = (member: TestMember, tenantId: string, path: string) =>
  measured(new Request(`${BASE}/api/v1/tenant/${tenantId}${path}`, { headers: { authorization: `Bearer ${member.token}` } }));

/** The first 30 characters of each directory round trip's first statement, in order. */
const directoryTrips = (cost: D1Cost) => cost.trips.filter((trip) => trip.database === 'directory').map((trip) => trip.sql[0]?.slice(0, 30));

describe('a remembered membership', () => {
  it('serves a second read with one round trip of wait: the membership check in the directory beside the route on the shard', async () => {
    const tenant = await createTenant();
    expectOk((await read(tenant.owner, tenant.id, '/tiers')).response, 200, pageSchema(tierRuleSchema));
    const { response, cost } = await read(tenant.owner, tenant.id, '/tiers');
    expectOk(response, 200, pageSchema(tierRuleSchema));
    expect(cost.roundTrips).toBe(2);
    expect(cost.concurrent).toBe(1);
    expect(directoryTrips(cost)).toEqual([expect.stringMatching(/^SELECT \(EXISTS \(SELECT 1 FROM /)]);
  });

  it('is refused at once once the member is removed: 404, as for any non-member', async () => {
    const tenant = await createTenant();
    const editor = await addMember(tenant.id, 'editor');
    expectOk((await read(editor, tenant.id, '/tiers')).response, 200, pageSchema(tierRuleSchema));
    expectOk(await portalCall(tenant.owner, 'DELETE', `/api/v1/tenant/${tenant.id}/members/${editor.accountId}`), 200, z.null());
    expectError((await read(editor, tenant.id, '/tiers')).response, 404, 'NOT_FOUND');
    expectError((await read(editor, tenant.id, '/tiers')).response, 404, 'NOT_FOUND');
  });

  it('follows a role change at once: an admin demoted to viewer is refused the admin-only key list', async () => {
    const tenant = await createTenant();
    const admin = await addMember(tenant.id, 'admin');
    expectOk((await read(admin, tenant.id, '/api-keys')).response, 200, pageSchema(apiKeySchema));
    expectOk(await portalCall(tenant.owner, 'PATCH', `/api/v1/tenant/${tenant.id}/members/${admin.accountId}`, { role: 'viewer' }), 200, memberSchema);
    const demoted = await read(admin, tenant.id, '/api-keys');
    expectError(demoted.response, 403, 'FORBIDDEN');
    // Answered by the full path alone: its sign-in lookups ran after the refused check.
    expect(directoryTrips(demoted.cost)).toEqual([expect.stringMatching(/^SELECT \(EXISTS/), expect.stringMatching(/^select "id", "sub"/)]);
    // The fresh membership is remembered in turn: viewer reads still work, with one round trip of wait.
    expectOk((await read(admin, tenant.id, '/tiers')).response, 200, pageSchema(tierRuleSchema));
    expect((await read(admin, tenant.id, '/tiers')).cost).toMatchObject({ roundTrips: 2, concurrent: 1 });
  });

  it('takes an invitation waiting for the verified email on the next read, as a sign-in does', async () => {
    const [home, other] = [await createTenant(), await createTenant()];
    const editor = await addMember(home.id, 'editor');
    expectOk((await read(editor, home.id, '/tiers')).response, 200, pageSchema(tierRuleSchema));
    // An invitation left from before the account existed (one made now is linked at once).
    await directory().insert(memberships).values({ id: newId('mem'), tenantId: other.id, accountId: null, email: editor.email, role: 'viewer', status: 'invited' });
    const { response, cost } = await read(editor, home.id, '/tiers');
    expectOk(response, 200, pageSchema(tierRuleSchema));
    expect(cost.rowsWritten).toBeGreaterThan(0);
    expectOk((await read(editor, other.id, '/tiers')).response, 200, pageSchema(tierRuleSchema));
  });

  it('never serves another tenant: a member of one tenant reading another is 404 whatever was remembered (on another shard and on the same one)', async () => {
    const mine = await createTenant();
    expectOk((await read(mine.owner, mine.id, '/tiers')).response, 200, pageSchema(tierRuleSchema));
    for (const theirs of await otherTenants(mine.id)) {
      expectError((await read(mine.owner, theirs.id, '/tiers')).response, 404, 'NOT_FOUND');
    }
  });

  it('refuses a membership changed behind the cache (status set back to invited directly in D1)', async () => {
    const tenant = await createTenant();
    const viewer = await addMember(tenant.id, 'viewer');
    expectOk((await read(viewer, tenant.id, '/tiers')).response, 200, pageSchema(tierRuleSchema));
    await env.DB.prepare("update memberships set status = 'invited' where tenant_id = ? and account_id = ?").bind(tenant.id, viewer.accountId).run();
    expectError((await read(viewer, tenant.id, '/tiers')).response, 404, 'NOT_FOUND');
  });
});
