import { describe, expect, it } from 'vitest';
import { signRequest } from '../../src/auth/signature';
import { newId } from '../../src/lib/ids';
import { call, expectError, type JsonResponse } from '../support/http';
import { createCustomer, ledgerState } from '../support/ledger';
import { createTenant, createTestApiKey, type TestApiKey } from '../support/world';

const TX = '/api/v1/gateway/internal-transactions/itx_missing';
const XP = '/api/v1/gateway/xp';
const KIB = 1024;

/** A correctly signed GET with one header replaced. */
async function withHeader(key: TestApiKey, name: string, value: string): Promise<JsonResponse> {
  const signed = await signRequest({ keyId: key.keyId, secret: key.secret, method: 'GET', url: TX });
  return call('GET', TX, { headers: { ...signed, [name]: value } });
}

/** 401 in the error envelope, with no storage touched on the way (a 5xx would show a storage fault). */
function expectRefused(res: JsonResponse, message: string | RegExp) {
  const body = expectError(res, 401, 'AUTH_INVALID_CREDENTIALS', message);
  expect(body.data).toBeNull();
}

async function setup() {
  const tenant = await createTenant();
  return { tenant, key: await createTestApiKey(tenant.id) };
}

const hex64 = 'a'.repeat(64);
const MALFORMED_KEY_ID = /^X-Tenant-Key is not an API key id/;

describe('gateway headers are bounded and validated before storage: 401, never 500', () => {
  it.each([
    ['506 characters (the KV key limit that answered 500)', `key_${'a'.repeat(502)}`],
    ['4096 characters', `key_${'a'.repeat(4092)}`],
    ['100k characters', `key_${'a'.repeat(100_000)}`],
    ['one character too many', `key_${'a'.repeat(21)}`],
    ['one character too few', `key_${'a'.repeat(19)}`],
    ['a control character', `key_${'a'.repeat(19)}\x01`],
    ['DEL', `key_${'a'.repeat(19)}\x7f`],
    ['non-ASCII', `key_${'a'.repeat(19)}é`],
    ['uppercase', `KEY_${'A'.repeat(20)}`],
    ['the secret instead of the key id', `sk_${'a'.repeat(52)}`],
    ['a KV key prefix', `apikey:key_${'a'.repeat(20)}`],
  ])('X-Tenant-Key: %s', async (_case, value) => {
    const { key } = await setup();
    expectRefused(await withHeader(key, 'X-Tenant-Key', value), MALFORMED_KEY_ID);
  });

  it.each([
    ['100k digits', '1'.repeat(100_000), 'Timestamp is not current'],
    ['17 digits', '1'.repeat(17), 'Timestamp is not current'],
    ['a control character', `${Math.floor(Date.now() / 1000)}\x01`, 'Timestamp is not a whole number of Unix seconds'],
    ['non-ASCII digits', '¹²³', 'Timestamp is not a whole number of Unix seconds'],
    ['4096 characters', 'x'.repeat(4 * KIB), 'Timestamp is not a whole number of Unix seconds'],
  ])('X-Tenant-Timestamp: %s', async (_case, value, message) => {
    const { key } = await setup();
    expectRefused(await withHeader(key, 'X-Tenant-Timestamp', value), message);
  });

  it.each([
    ['100k characters', 'a'.repeat(100_000)],
    ['65 hex characters', `${hex64}a`],
    ['63 hex characters', hex64.slice(1)],
    ['uppercase hex', hex64.toUpperCase()],
    ['a control character', `${hex64.slice(1)}\x01`],
    ['non-ASCII', `${hex64.slice(1)}é`],
  ])('X-Tenant-Signature: %s', async (_case, value) => {
    const { key } = await setup();
    expectRefused(await withHeader(key, 'X-Tenant-Signature', value), 'Signature is not lowercase hex HMAC-SHA256');
  });

  it.each([
    ['4096 characters', 'k'.repeat(4 * KIB)],
    ['100k characters', 'k'.repeat(100_000)],
    ['a control character', 'order-\x01'],
    ['non-ASCII', 'order-é'],
  ])('X-Idempotency-Key: %s is a 400 before anything is stored or run', async (_case, value) => {
    const { tenant, key } = await setup();
    const userId = await createCustomer(tenant.id);
    const body = JSON.stringify({ user_id: userId, type: 'xp_earn', amount: '5' });
    const signed = await signRequest({ keyId: key.keyId, secret: key.secret, method: 'POST', url: XP, body });
    const res = await call('POST', XP, { headers: { ...signed, 'content-type': 'application/json', 'X-Idempotency-Key': value }, rawBody: body });
    const error = expectError(res, 400, 'IDEMPOTENCY_KEY_REQUIRED', 'The X-Idempotency-Key header must be 1 to 255 printable ASCII characters');
    expect(error.errors[0]?.path).toBe('X-Idempotency-Key');
    expect(await ledgerState(tenant.id, userId)).toMatchObject({ balance: 0, entries: 0 });
  });
});

describe('portal Authorization header is bounded', () => {
  it.each([
    ['100 KiB', `Bearer ${'a'.repeat(100 * KIB)}`],
    ['8193 characters', `Bearer ${'a'.repeat(8193 - 'Bearer '.length)}`],
  ])('%s: 401 UNAUTHENTICATED before any parsing', async (_case, value) => {
    const res = await call('GET', '/api/v1/user/me', { headers: { authorization: value } });
    expectError(res, 401, 'UNAUTHENTICATED', 'Authorization header is longer than 8192 characters');
  });

  it('a long header within the bound is still parsed (and refused as a token)', async () => {
    const res = await call('GET', '/api/v1/user/me', { headers: { authorization: `Bearer ${'a'.repeat(8192 - 'Bearer '.length)}` } });
    expect(expectError(res, 401, 'UNAUTHENTICATED').error.message).not.toMatch(/longer than/);
  });
});

describe('X-Request-Id is echoed only when safe', () => {
  it.each([
    ['129 characters', 'r'.repeat(129)],
    ['100k characters', 'r'.repeat(100_000)],
    ['a space and a quote (log injection)', 'abc" level="error'],
    ['a control character', 'abc\x01def'],
    ['non-ASCII', 'abcé'],
  ])('%s: replaced by a generated id', async (_case, value) => {
    const res = await call('GET', '/api/v1/info', { headers: { 'x-request-id': value } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^req_[a-z2-7]{26}$/);
  });

  it('echoes a bounded id of safe characters', async () => {
    const sent = `trace-${newId('x')}.1:2`;
    const res = await call('GET', '/api/v1/info', { headers: { 'x-request-id': sent } });
    expect(res.headers.get('x-request-id')).toBe(sent);
  });
});
