import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { signRequest } from '../../src/auth/signature';
import { idempotencyRecords } from '../../src/db/schema';
import { IDEMPOTENCY_KEY_PATTERN } from '../../src/domain/idempotency';
import { pageSchema } from '../../src/lib/paging';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { redemptionSchema } from '../../src/schemas/redemption';
import { call, expectError, expectOk } from '../support/http';
import { fetchDocument, operations } from '../support/openapi';
import { gatewayRequest, race } from '../support/race';
import { createCustomer, ledgerState } from '../support/ledger';
import { customerWithXp, insertReward } from '../support/rewards';
import { createTenant, createTestApiKey, db, gatewayCall, type TestApiKey } from '../support/world';

const XP = '/api/v1/gateway/xp';
const REDEMPTIONS = '/api/v1/gateway/redemptions';

async function setup() {
  const tenant = await createTenant();
  const key = await createTestApiKey(tenant.id);
  const userId = await createCustomer(tenant.id);
  return { tenant, key, userId };
}

async function recordOf(tenantId: string, idempotencyKey: string) {
  const [record] = await db(tenantId).select().from(idempotencyRecords).where(and(eq(idempotencyRecords.tenantId, tenantId), eq(idempotencyRecords.key, idempotencyKey)));
  return record;
}

const earnWith = (key: TestApiKey, idempotencyKey: string | null, body: unknown, headers?: Record<string, string>) =>
  gatewayCall(key, 'POST', XP, { body, idempotencyKey, headers });

describe('gateway idempotency (X-Idempotency-Key)', () => {
  it('replays the stored response byte for byte with Idempotent-Replayed: true, and runs the write once', async () => {
    const { tenant, key, userId } = await setup();
    const body = { user_id: userId, type: 'xp_earn', amount: '70' };
    const first = await earnWith(key, 'order-1', body);
    expectOk(first, 201, internalTransactionSchema);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();

    const replay = await earnWith(key, 'order-1', body);
    expect(replay.status).toBe(201);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 70, entries: 1 });
  });

  it('treats the same JSON with other formatting as the same request', async () => {
    const { tenant, key, userId } = await setup();
    const first = await earnWith(key, 'fmt-1', { user_id: userId, type: 'xp_earn', amount: '5' });
    expectOk(first, 201, internalTransactionSchema);
    const spaced = `{ "user_id": "${userId}",\n  "type": "xp_earn", "amount": "5" }`;
    // The server verifies the signature over the re-serialized body (spec rule 2), so sign that.
    const signed = await signRequest({ keyId: key.keyId, secret: key.secret, method: 'POST', url: XP, body: JSON.stringify(JSON.parse(spaced)) });
    const headers = { ...signed, 'content-type': 'application/json', 'X-Idempotency-Key': 'fmt-1' };
    const replay = await call('POST', XP, { headers, rawBody: spaced });
    expect(replay.status).toBe(201);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 5, entries: 1 });
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for the same key with a different body, and runs nothing', async () => {
    const { tenant, key, userId } = await setup();
    expectOk(await earnWith(key, 'reuse-1', { user_id: userId, type: 'xp_earn', amount: '10' }), 201, internalTransactionSchema);
    const body = expectError(await earnWith(key, 'reuse-1', { user_id: userId, type: 'xp_earn', amount: '11' }), 422, 'IDEMPOTENCY_KEY_REUSED', /different request body/);
    expect(body.errors[0]?.path).toBe('X-Idempotency-Key');
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 10, entries: 1 });
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for the same key on another route or method', async () => {
    const { key, userId } = await setup();
    const body = { user_id: userId, type: 'xp_earn', amount: '10' };
    expectOk(await earnWith(key, 'route-1', body), 201, internalTransactionSchema);
    const otherPath = await gatewayCall(key, 'POST', '/api/v1/gateway/customers', { body, idempotencyKey: 'route-1' });
    expectError(otherPath, 422, 'IDEMPOTENCY_KEY_REUSED', 'This idempotency key was used for POST /api/v1/gateway/xp');
    const otherMethod = await gatewayCall(key, 'PUT', `/api/v1/gateway/customers/${userId}/attributes`, { body: { values: { plan: 'pro' } }, idempotencyKey: 'route-1' });
    expectError(otherMethod, 422, 'IDEMPOTENCY_KEY_REUSED', /POST \/api\/v1\/gateway\/xp/);
  });

  it('answers 400 IDEMPOTENCY_KEY_REQUIRED for a missing, empty or over-long key, before anything runs', async () => {
    const { tenant, key, userId } = await setup();
    const body = { user_id: userId, type: 'xp_earn', amount: '10' };
    const missing = expectError(await earnWith(key, null, body), 400, 'IDEMPOTENCY_KEY_REQUIRED', /required/);
    expect(missing.errors[0]?.path).toBe('X-Idempotency-Key');
    expectError(await earnWith(key, null, body, { 'X-Idempotency-Key': '' }), 400, 'IDEMPOTENCY_KEY_REQUIRED');
    expectError(await earnWith(key, 'k'.repeat(256), body), 400, 'IDEMPOTENCY_KEY_REQUIRED', /255/);
    expectOk(await earnWith(key, 'k'.repeat(255), body), 201, internalTransactionSchema);
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 10, entries: 1 });
  });

  it('answers 400 IDEMPOTENCY_KEY_REQUIRED for a key with a character outside printable ASCII, as the header\'s documented pattern says', async () => {
    const { tenant, key, userId } = await setup();
    const body = { user_id: userId, type: 'xp_earn', amount: '10' };
    for (const outside of ['tab\there', 'café', 'nul\u0001']) {
      const refused = expectError(await earnWith(key, outside, body), 400, 'IDEMPOTENCY_KEY_REQUIRED', /printable ASCII/);
      expect(refused.errors[0]?.path).toBe('X-Idempotency-Key');
    }
    expectOk(await earnWith(key, 'A !"#$%&\'()*+,-./09:;<=>?@AZ[\\]^_`az{|}~', body), 201, internalTransactionSchema);
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 10, entries: 1 });
    const { doc } = await fetchDocument();
    const writes = operations(doc).filter(({ path, method }) => path.startsWith('/gateway/') && method !== 'get');
    expect(writes.length).toBeGreaterThan(0);
    for (const { path, method, op } of writes) {
      const header = op.parameters?.find((parameter) => parameter.name === 'x-idempotency-key');
      expect(header?.schema, `${method} ${path}`).toMatchObject({ pattern: IDEMPOTENCY_KEY_PATTERN.source, minLength: 1, maxLength: 255 });
    }
  });

  it('does not need a key on reads', async () => {
    const { key } = await setup();
    expectOk(await gatewayCall(key, 'GET', '/api/v1/gateway/internal-transactions', { idempotencyKey: null }), 200, pageSchema(internalTransactionSchema));
  });

  it('does not store a validation failure: a corrected retry with the same key succeeds', async () => {
    const { tenant, key, userId } = await setup();
    expectError(await earnWith(key, 'fix-1', { user_id: userId, type: 'xp_earn', amount: '1.5' }), 422, 'VALIDATION_FAILED');
    const fixed = await earnWith(key, 'fix-1', { user_id: userId, type: 'xp_earn', amount: '2' });
    expectOk(fixed, 201, internalTransactionSchema);
    expect(fixed.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 2, entries: 1 });
  });

  it('does not store a 415 (JSON sent without Content-Type: application/json): the corrected retry with the same key runs', async () => {
    const { tenant, key, userId } = await setup();
    const body = { user_id: userId, type: 'xp_earn', amount: '3' };
    const raw = JSON.stringify(body);
    const signed = await signRequest({ keyId: key.keyId, secret: key.secret, method: 'POST', url: XP, body: raw });
    const headers = { ...signed, 'content-type': 'text/plain', 'X-Idempotency-Key': 'ct-1' };
    expectError(await call('POST', XP, { headers, rawBody: raw }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(await recordOf(tenant.id, 'ct-1')).toBeUndefined();
    const fixed = await earnWith(key, 'ct-1', body);
    expectOk(fixed, 201, internalTransactionSchema);
    expect(fixed.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 3, entries: 1 });
  });

  it('stores other 4xx outcomes and replays them', async () => {
    const { key } = await setup();
    const body = { user_id: 'cus_missing', type: 'xp_earn', amount: '5' };
    const first = await earnWith(key, 'nf-1', body);
    expectError(first, 404, 'NOT_FOUND');
    const replay = await earnWith(key, 'nf-1', body);
    expectError(replay, 404, 'NOT_FOUND');
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it("a replayed failure keeps the first answer's error.request_id in its body, while its X-Request-Id header is the replay's own, as the document says", async () => {
    const { key } = await setup();
    const body = { user_id: 'cus_missing', type: 'xp_earn', amount: '5' };
    const first = await earnWith(key, 'rid-1', body, { 'X-Request-Id': 'first-try.1' });
    expect(expectError(first, 404, 'NOT_FOUND').error.request_id).toBe('first-try.1');
    expect(first.headers.get('x-request-id')).toBe('first-try.1');
    const replay = await earnWith(key, 'rid-1', body, { 'X-Request-Id': 'retry.2' });
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(expectError(replay, 404, 'NOT_FOUND').error.request_id).toBe('first-try.1');
    expect(replay.headers.get('x-request-id')).toBe('retry.2');

    const { doc } = await fetchDocument();
    const envelope = doc.components.schemas.ErrorEnvelope as { properties: { error: { properties: { request_id: { description: string } } } } };
    for (const description of [doc.components.headers?.RequestId?.description, envelope.properties.error.properties.request_id.description]) {
      expect(description).toMatch(/replay.*first request/);
    }
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_USE while the first request is in flight, without storing anything', async () => {
    const { tenant, key, userId } = await setup();
    const body = { user_id: userId, type: 'xp_earn', amount: '5' };
    // The fingerprint does not involve the key: copy this request's finished record as an unfinished claim.
    expectOk(await earnWith(key, 'probe', body), 201, internalTransactionSchema);
    const probe = await recordOf(tenant.id, 'probe');
    await db(tenant.id).insert(idempotencyRecords).values({ ...probe!, key: 'busy-1', responseStatus: null, responseBody: null, expiresAt: new Date(Date.now() + 60_000).toISOString() });

    expectError(await earnWith(key, 'busy-1', body), 409, 'IDEMPOTENCY_KEY_IN_USE', /in progress/);
    expect((await recordOf(tenant.id, 'busy-1'))?.responseStatus).toBeNull();
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 5, entries: 1 });
  });

  it('treats an expired record as absent: the key runs again', async () => {
    const { tenant, key, userId } = await setup();
    const past = new Date(Date.now() - 1000).toISOString();
    await db(tenant.id).insert(idempotencyRecords).values({
      tenantId: tenant.id,
      key: 'old-1',
      method: 'POST',
      path: '/api/v1/gateway/other',
      requestHash: 'stale',
      responseStatus: 201,
      responseBody: '{"stale":true}',
      createdAt: new Date(Date.now() - 25 * 3600_000).toISOString(),
      expiresAt: past,
    });
    const res = await earnWith(key, 'old-1', { user_id: userId, type: 'xp_earn', amount: '9' });
    expectOk(res, 201, internalTransactionSchema);
    expect(res.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 9, entries: 1 });
  });

  it('scopes keys per tenant', async () => {
    const a = await setup();
    const b = await setup();
    const resA = await earnWith(a.key, 'shared-key', { user_id: a.userId, type: 'xp_earn', amount: '3' });
    const resB = await earnWith(b.key, 'shared-key', { user_id: b.userId, type: 'xp_earn', amount: '4' });
    expectOk(resA, 201, internalTransactionSchema);
    expectOk(resB, 201, internalTransactionSchema);
    expect(resB.headers.get('Idempotent-Replayed')).toBeNull();
  });

  // The name is cited by docs/THREAT-MODEL.md.
  it('executes 50 concurrent requests with one key exactly once', async () => {
    const { tenant, key, userId } = await setup();
    const body = { user_id: userId, type: 'xp_earn', amount: '100' };
    // All 50 send their claim (the first D1 round trip, with the key guard and the write) before any claim lands.
    const requests = await Promise.all(Array.from({ length: 50 }, () => gatewayRequest(key, 'POST', XP, { body, idempotencyKey: 'burst-1' })));
    const { responses, held } = await race(requests, /insert into "idempotency_records"/i);
    expect(held).toBe(50);

    const originals = responses.filter((res) => res.headers.get('Idempotent-Replayed') === null);
    expect(originals).toHaveLength(1);
    const original = originals[0]!;
    expectOk(original, 201, internalTransactionSchema);
    // The first batch D1 ran stored the response with the write: every other claim, rolled back
    // with its write, found a finished record (docs/decisions/0060-write-round-trips.md).
    const others = responses.filter((res) => res !== original);
    expect(others).toHaveLength(49);
    for (const res of others) {
      expect(res.status).toBe(201);
      expect(res.text).toBe(original.text);
      expect(res.headers.get('Idempotent-Replayed')).toBe('true');
    }
    expect(await ledgerState(tenant.id, userId)).toEqual({ balance: 100, lifetime: 100, ledgerSum: 100, entries: 1 });
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_USE to a duplicate arriving between the claim and the write, without storing it', async () => {
    const { tenant, key } = await setup();
    const reward = await insertReward(tenant.id, { xpCost: 30 });
    const userId = await customerWithXp(tenant.id, 100);
    const body = { user_id: userId, reward_id: reward.id };
    const requests = await Promise.all([1, 2].map(() => gatewayRequest(key, 'POST', REDEMPTIONS, { body, idempotencyKey: 'between-1' })));
    // Whichever claims first (its checks' reads) is held before its write batch; the other's claim is refused meanwhile.
    const { responses, held } = await race(requests, /insert into "redemption_guard"/i);
    expect(held).toBe(1);
    const created = responses.filter((res) => res.status === 201);
    expect(created).toHaveLength(1);
    expectOk(created[0]!, 201, redemptionSchema);
    expectError(responses.find((res) => res.status !== 201)!, 409, 'IDEMPOTENCY_KEY_IN_USE', /in progress/);
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 70, entries: 2 });
    // The 409 was not stored: the key now replays the redemption.
    const later = await gatewayCall(key, 'POST', REDEMPTIONS, { body, idempotencyKey: 'between-1' });
    expect(later.text).toBe(created[0]!.text);
    expect(later.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('answers 409 to a duplicate refused while the holder finishes without storing (422); a retry then runs', async () => {
    const { tenant, key, userId } = await setup();
    const path = `/api/v1/gateway/customers/${userId}/attributes`;
    const body = { values: { never_defined: 'x' } };
    const requests = await Promise.all([1, 2].map(() => gatewayRequest(key, 'PUT', path, { body, idempotencyKey: 'gone-1' })));
    // The refused duplicate looks the key up (recording its signature use) only once the holder has answered and released it.
    const { responses, held } = await race(requests, /on conflict .* do nothing/i);
    expect(held).toBe(1);
    const statuses = responses.map((res) => res.status).sort();
    expect(statuses).toEqual([409, 422]);
    expectError(responses.find((res) => res.status === 409)!, 409, 'IDEMPOTENCY_KEY_IN_USE', /retry later/);
    expectError(responses.find((res) => res.status === 422)!, 422, 'VALIDATION_FAILED');
    expect(await recordOf(tenant.id, 'gone-1')).toBeUndefined();
    expectError(await gatewayCall(key, 'PUT', path, { body, idempotencyKey: 'gone-1' }), 422, 'VALIDATION_FAILED');
  });

  it('keeps the outcome for 24 hours', async () => {
    const { tenant, key, userId } = await setup();
    expectOk(await earnWith(key, 'day-1', { user_id: userId, type: 'xp_earn', amount: '1' }), 201, internalTransactionSchema);
    const record = await recordOf(tenant.id, 'day-1');
    expect(record?.responseStatus).toBe(201);
    expect(Date.parse(record!.expiresAt) - Date.parse(record!.createdAt)).toBe(24 * 3600_000);
  });
});
