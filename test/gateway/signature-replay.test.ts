import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { signRequest } from '../../src/auth/signature';
import { gatewaySignatureUses, idempotencyRecords } from '../../src/db/schema';
import worker from '../../src/index';
import { purgeExpiredSignatureUses } from '../../src/jobs/idempotency-cleanup';
import { newId } from '../../src/lib/ids';
import { unixSeconds } from '../../src/lib/time';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { BASE, call, expectError, expectOk, type JsonResponse } from '../support/http';
import { createCustomer, ledgerState } from '../support/ledger';
import { race } from '../support/race';
import { createDatabase, type Database } from '../../src/db/client';
import { createTenant, createTestApiKey, db, everyShard, type TestApiKey } from '../support/world';

const XP = '/api/v1/gateway/xp';
const TOLERANCE = Number(env.SIGNATURE_TOLERANCE_SECONDS);

async function setup() {
  const tenant = await createTenant();
  const key = await createTestApiKey(tenant.id);
  const userId = await createCustomer(tenant.id);
  return { tenant, key, userId };
}

/** One signed earn, as an attacker would capture it: headers and body, without an idempotency key. */
async function capturedEarn(key: TestApiKey, body: Record<string, unknown>) {
  const raw = JSON.stringify(body);
  const signed = await signRequest({ keyId: key.keyId, secret: key.secret, method: 'POST', url: XP, body: raw, timestamp: unixSeconds() });
  const headers: Record<string, string> = { ...signed, 'content-type': 'application/json' };
  return { headers, raw };
}

type Captured = Awaited<ReturnType<typeof capturedEarn>>;

const resend = (captured: Captured, idempotencyKey: string): Promise<JsonResponse> =>
  call('POST', XP, { headers: { ...captured.headers, 'X-Idempotency-Key': idempotencyKey }, rawBody: captured.raw });

const resendRequest = (captured: Captured, idempotencyKey: string) =>
  new Request(`${BASE}${XP}`, { method: 'POST', headers: { ...captured.headers, 'X-Idempotency-Key': idempotencyKey }, body: captured.raw });

function expectReplayRefused(res: JsonResponse) {
  const body = expectError(res, 401, 'SIGNATURE_REPLAYED', /single-use\. Sign the request again with a fresh timestamp/);
  expect(body.errors).toEqual([{ path: 'X-Tenant-Signature', message: body.error.message }]);
}

/** The signature uses of `tenantId` in `shard` (its tenant's shard by default). */
async function usesOf(tenantId: string, shard: Database = db(tenantId)) {
  return shard.select().from(gatewaySignatureUses).where(eq(gatewaySignatureUses.tenantId, tenantId));
}

describe('single-use signatures of gateway writes', () => {
  it('refuses the attack: one signed earn of 100 XP sent six times with six idempotency keys earns 100 once', async () => {
    const { tenant, key, userId } = await setup();
    const captured = await capturedEarn(key, { user_id: userId, type: 'xp_earn', amount: '100' });
    const responses: JsonResponse[] = [];
    for (let i = 0; i < 6; i += 1) responses.push(await resend(captured, newId('idem')));

    const [first, ...replays] = responses;
    expectOk(first!, 201, internalTransactionSchema);
    expect(replays).toHaveLength(5);
    for (const res of replays) expectReplayRefused(res);
    expect(await ledgerState(tenant.id, userId)).toEqual({ balance: 100, lifetime: 100, ledgerSum: 100, entries: 1 });
  });

  it('replays the stored response for the same signature with the same key (Idempotent-Replayed: true)', async () => {
    const { tenant, key, userId } = await setup();
    const captured = await capturedEarn(key, { user_id: userId, type: 'xp_earn', amount: '40' });
    const first = await resend(captured, 'order-7');
    expectOk(first, 201, internalTransactionSchema);
    const again = await resend(captured, 'order-7');
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expectReplayRefused(await resend(captured, 'order-8'));
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 40, entries: 1 });
  });

  it('executes exactly one of 8 simultaneous sends of one signature with 8 keys', async () => {
    const { tenant, key, userId } = await setup();
    const captured = await capturedEarn(key, { user_id: userId, type: 'xp_earn', amount: '100' });
    const requests = Array.from({ length: 8 }, () => resendRequest(captured, newId('idem')));
    // Every request has passed authentication and holds its first round trip before any of them lands.
    const { responses, held } = await race(requests, /insert into "gateway_signature_uses"/i);
    expect(held).toBe(8);

    const created = responses.filter((res) => res.status === 201);
    expect(created).toHaveLength(1);
    expectOk(created[0]!, 201, internalTransactionSchema);
    const refused = responses.filter((res) => res.status !== 201);
    expect(refused).toHaveLength(7);
    for (const res of refused) expectReplayRefused(res);
    expect(await ledgerState(tenant.id, userId)).toEqual({ balance: 100, lifetime: 100, ledgerSum: 100, entries: 1 });
    expect(await usesOf(tenant.id)).toHaveLength(1);
  });

  it('keeps the signature consumed after a refused write (422): another key is 401, the same key may retry', async () => {
    const { tenant, key, userId } = await setup();
    const captured = await capturedEarn(key, { user_id: userId, type: 'xp_earn', amount: '1.5' });
    expectError(await resend(captured, 'fix-1'), 422, 'VALIDATION_FAILED');
    const [record] = await db(tenant.id).select().from(idempotencyRecords).where(and(eq(idempotencyRecords.tenantId, tenant.id), eq(idempotencyRecords.key, 'fix-1')));
    expect(record).toBeUndefined();

    expectReplayRefused(await resend(captured, 'fix-2'));
    expectError(await resend(captured, 'fix-1'), 422, 'VALIDATION_FAILED');
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 0, entries: 0 });
  });

  it('records the use with its key until the timestamp leaves the window', async () => {
    const { tenant, key, userId } = await setup();
    const captured = await capturedEarn(key, { user_id: userId, type: 'xp_earn', amount: '3' });
    expectOk(await resend(captured, 'window-1'), 201, internalTransactionSchema);
    const timestamp = Number(captured.headers['X-Tenant-Timestamp']);
    expect(await usesOf(tenant.id)).toEqual([
      expect.objectContaining({
        signature: captured.headers['X-Tenant-Signature'],
        idempotencyKey: 'window-1',
        expiresAt: new Date((timestamp + TOLERANCE + 1) * 1000).toISOString(),
      }),
    ]);
  });

  it('does not make reads single-use: the same signed GET answers twice and records nothing', async () => {
    const { tenant, key } = await setup();
    const signed = await signRequest({ keyId: key.keyId, secret: key.secret, method: 'GET', url: '/api/v1/gateway/tiers', timestamp: unixSeconds() });
    const first = await call('GET', '/api/v1/gateway/tiers', { headers: signed });
    const second = await call('GET', '/api/v1/gateway/tiers', { headers: signed });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(await usesOf(tenant.id)).toEqual([]);
  });
});

describe('signature use cleanup (hourly cron)', () => {
  const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
  const use = (tenantId: string, signature: string, expiresAt: string) => ({ tenantId, signature, idempotencyKey: `k-${signature}`, expiresAt });
  const signaturesOf = async (shard: Database, tenantId: string) => (await usesOf(tenantId, shard)).map((row) => row.signature).sort();

  it('deletes uses expired for over a minute and keeps the rest (clock skew between locations), on every shard', async () => {
    const shards = everyShard().map((shard) => ({ db: createDatabase(shard.d1), tenantId: newId('ten') }));
    for (const { db: shard, tenantId } of shards) {
      await shard.insert(gatewaySignatureUses).values([use(tenantId, 'old', iso(-3600_000)), use(tenantId, 'just-expired', iso(-1000)), use(tenantId, 'live', iso(300_000))]);
    }

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: '0 * * * *', scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);

    for (const { db: shard, tenantId } of shards) expect(await signaturesOf(shard, tenantId)).toEqual(['just-expired', 'live']);
  });

  it('works through a large backlog in bounded batches', async () => {
    const tenantId = newId('ten');
    const shard = createDatabase(everyShard()[0]!.d1);
    const rows = Array.from({ length: 620 }, (_, i) => use(tenantId, `old-${i}`, iso(-3600_000)));
    // D1 binds at most 100 parameters per statement: 20 rows of 4 columns each.
    const inserts = [];
    for (let i = 0; i < rows.length; i += 20) inserts.push(shard.insert(gatewaySignatureUses).values(rows.slice(i, i + 20)));
    await shard.batch(inserts as [(typeof inserts)[number], ...typeof inserts]);
    await shard.insert(gatewaySignatureUses).values(use(tenantId, 'keep', iso(300_000)));

    expect(await purgeExpiredSignatureUses(shard)).toBeGreaterThanOrEqual(620);
    expect(await signaturesOf(shard, tenantId)).toEqual(['keep']);
  });
});
