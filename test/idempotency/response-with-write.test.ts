import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/client';
import { idempotencyRecords, onchainAssets } from '../../src/db/schema';
import type { GatewayEnv } from '../../src/app-env';
import { newId } from '../../src/lib/ids';
import { onError } from '../../src/middleware/errors';
import { idempotency, responseWithWrite } from '../../src/middleware/idempotency';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { createCustomerViaApi } from '../support/customers';
import { errorLog } from '../support/logs';
import { BASE, expectOk } from '../support/http';
import { createCustomer } from '../support/ledger';
import { createTenant, createTestApiKey, db, gatewayCall, shardD1 } from '../support/world';

/**
 * A write that stores its response with its own batch (ResponseWithWrite,
 * docs/decisions/0060-write-round-trips.md) answers exactly the bytes it stored, and a write whose view is only known after
 * its batch has its response stored after, as before.
 */
const XP = '/api/v1/gateway/xp';

async function storedBody(tenantId: string, key: string) {
  const [record] = await db(tenantId).select().from(idempotencyRecords).where(and(eq(idempotencyRecords.tenantId, tenantId), eq(idempotencyRecords.key, key)));
  return record?.responseBody;
}


describe('responses stored with the write', () => {
  it('an earn stores in its own batch the very bytes it answers (notes, nested metadata, non-ASCII, exponents)', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const userId = await createCustomer(tenant.id);
    const logged = errorLog();
    const body = {
      user_id: userId,
      type: 'xp_bonus',
      amount: '12',
      notes: 'Grüße ✓ "quoted" \\ back',
      metadata: { order: { id: 'o-1', lines: [1, 2.5, 1e21, -3], tags: ['a', null, true] }, emoji: '🎉', empty: {} },
    };
    const first = await gatewayCall(key, 'POST', XP, { body, idempotencyKey: 'rich-1' });
    expectOk(first, 201, internalTransactionSchema);
    expect(await storedBody(tenant.id, 'rich-1')).toBe(first.text);
    const replay = await gatewayCall(key, 'POST', XP, { body, idempotencyKey: 'rich-1' });
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(logged()).not.toContain('differs');
  });

  it('an earn mirrored onto an XP token (its status decided in SQL) has its response stored after the write, and replayed', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    await db(tenant.id).insert(onchainAssets).values({ id: newId('ast'), tenantId: tenant.id, key: 'xp', type: 'erc20', chainId: 31337, decimals: 0, name: 'XP', symbol: 'XP', status: 'deploying' });
    const customer = await createCustomerViaApi(key);
    const body = { user_id: customer.id, type: 'xp_earn', amount: '5' };
    const first = await gatewayCall(key, 'POST', XP, { body, idempotencyKey: 'mirrored-1' });
    expect(expectOk(first, 201, internalTransactionSchema).status).toBe('initialized');
    expect(await storedBody(tenant.id, 'mirrored-1')).toBe(first.text);
    const replay = await gatewayCall(key, 'POST', XP, { body, idempotencyKey: 'mirrored-1' });
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('a response stored with the write is the answer even when the handler answers otherwise (logged): the original and its replays agree', async () => {
    const tenant = await createTenant();
    const app = new Hono<GatewayEnv>();
    app.use('*', async (c, next) => {
      c.set('requestId', newId('req'));
      c.set('db', createDatabase(shardD1(tenant.id)));
      const signatureExpiresAt = new Date(Date.now() + 60_000).toISOString();
      c.set('gatewayAuth', { tenantId: tenant.id, apiKeyId: 'apk_test', keyId: 'key_test', signature: newId('sig'), signatureExpiresAt });
      await next();
    });
    app.use('*', idempotency());
    app.post('/write', async (c) => {
      const db = c.get('db');
      const response = responseWithWrite<{ answer: number }>(c, 201);
      if (!response) throw new Error('a write without its claim');
      const [stored] = await db.batch([response.statement(db, { answer: 1 })]);
      response.settle(stored);
      return c.json({ success: true as const, data: { answer: 2 } }, 201);
    });
    app.onError(onError);
    const logged = errorLog();
    const send = async () => {
      const res = await app.request(`${BASE}/write`, { method: 'POST', headers: { 'content-type': 'application/json', 'X-Idempotency-Key': 'differs-1' }, body: '{}' }, env);
      return { status: res.status, text: await res.text(), replayed: res.headers.get('Idempotent-Replayed') };
    };

    const first = await send();
    expect(first).toEqual({ status: 201, text: '{"success":true,"data":{"answer":1}}', replayed: null });
    expect(logged()).toContain('response differs from the one stored with the write');
    expect(await send()).toEqual({ ...first, replayed: 'true' });
  });
});
