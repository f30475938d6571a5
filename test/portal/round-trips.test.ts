import { describe, expect, it } from 'vitest';
import { BASE } from '../support/http';
import { portalToken } from '../support/tokens';
import { createTenant, type TestMember } from '../support/world';
import { measured } from '../cohorts/counting-d1';

/**
 * Every portal request is a sign-in; one where nothing changed must write nothing, so portal reads
 * stay reads (no write transaction; later servable by a D1 read replica). Counted with the real D1
 * binding instrumented (test/cohorts/counting-d1.ts), never timed.
 */
const isSelect = (sql: string) => /^\s*select\b/i.test(sql);

function portalRequest(member: { token: string }, path: string) {
  return new Request(`${BASE}${path}`, { headers: { authorization: `Bearer ${member.token}` } });
}

async function readCost(member: TestMember, path: string) {
  const { response, cost } = await measured(portalRequest(member, path));
  expect(response.status, response.text).toBe(200);
  // Round trips waited for: one begun while another was in flight adds no wait (counting-d1.ts).
  return { waits: cost.roundTrips - cost.concurrent, writes: cost.trips.flatMap((trip) => trip.sql).filter((sql) => !isSelect(sql)), rowsWritten: cost.rowsWritten };
}

describe('portal sign-in writes nothing when nothing changed', () => {
  it('a tenant route: the first read waits for 2 round trips (the sign-in lookups, then the route), later reads for 1 (the membership check in the directory beside the route on the shard); only SELECTs, no row written', async () => {
    const tenant = await createTenant();
    const [first, ...later] = ['members', 'tiers', 'api-keys', 'customers'];
    expect(await readCost(tenant.owner, `/api/v1/tenant/${tenant.id}/${first}`), first).toEqual({ waits: 2, writes: [], rowsWritten: 0 });
    for (const path of later) {
      expect(await readCost(tenant.owner, `/api/v1/tenant/${tenant.id}/${path}`), path).toEqual({ waits: 1, writes: [], rowsWritten: 0 });
    }
  });

  it('/user/me: only SELECTs, no row written', async () => {
    const tenant = await createTenant();
    const me = await readCost(tenant.owner, '/api/v1/user/me');
    expect(me.writes).toEqual([]);
    expect(me.rowsWritten).toBe(0);
  });

  it('writes when something did change (the email the identity provider vouches for), and not on the next request', async () => {
    const tenant = await createTenant();
    const changed = { ...tenant.owner, token: await portalToken({ sub: tenant.owner.sub, email: `new-${tenant.owner.email}`, username: tenant.owner.email.split('@')[0] }) };
    const path = `/api/v1/tenant/${tenant.id}/tiers`;
    expect(await readCost(tenant.owner, path)).toEqual({ waits: 2, writes: [], rowsWritten: 0 });
    // The remembered account has the old email: the new one takes the full path, and writes.
    const first = await readCost(changed, path);
    expect(first.writes.length).toBeGreaterThan(0);
    expect(await readCost(changed, path)).toEqual({ waits: 1, writes: [], rowsWritten: 0 });
  });
});
