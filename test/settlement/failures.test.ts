import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { onchainContext } from '../../src/chain/context';
import { onchainOperations } from '../../src/db/schema';
import type { Bindings } from '../../src/env';
import { earnXp } from '../../src/services/ledger';
import { onchainAssetSchema } from '../../src/schemas/internal-transaction';
import { fundedRelayer } from '../support/chain';
import { createCustomerViaApi } from '../support/customers';
import { expectOk } from '../support/http';
import { testKeys } from '../support/keys';
import { deliver, operationIds, relayerEnv, runCron, settleAll } from '../support/settlement';
import { createTenant, createTestApiKey, db, portalCall, services, shardOf } from '../support/world';
import { inspected } from '../support/log-capture';

const DEAD_RPC = 'http://127.0.0.1:9';
let relayer: Awaited<ReturnType<typeof fundedRelayer>>;
beforeAll(async () => {
  relayer = await fundedRelayer();
});

/** Every line the Worker logs during a test, to prove no secret or RPC URL ever reaches a log. */
function captureLogs(): () => string {
  const lines: string[] = [];
  for (const method of ['debug', 'log', 'info', 'warn', 'error'] as const) {
    vi.spyOn(console, method).mockImplementation(inspected((...args: unknown[]) => void lines.push(args.map(String).join(' '))));
  }
  return () => lines.join('\n');
}
afterEach(() => vi.restoreAllMocks());

async function deployingXpToken() {
  const tenant = await createTenant();
  const asset = expectOk(
    await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/onchain-assets`, { type: 'erc20', chain_id: 31337, key: 'xp', name: 'XP', symbol: 'XP', decimals: 0 }),
    201,
    onchainAssetSchema,
  );
  const [operationId] = await operationIds(['queued'], tenant.id);
  return { tenant, asset, operationId: operationId! };
}

async function operation(tenantId: string, id: string) {
  const [row] = await db(tenantId).select().from(onchainOperations).where(eq(onchainOperations.id, id));
  return row!;
}

describe('settlement failures: recorded, retried with backoff, never a stall or a leak', () => {
  it('an unreachable RPC is recorded naming the chain (not its URL) and the message retried with a delay; the next delivery settles', async () => {
    const logs = captureLogs();
    const { tenant, operationId } = await deployingXpToken();
    const result = await deliver(relayerEnv(relayer.privateKey, { CHAINS: JSON.stringify({ 31337: DEAD_RPC }) }), [operationId]);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages).toHaveLength(1);
    const failed = await operation(tenant.id, operationId);
    expect(failed).toMatchObject({ status: 'queued', errorCount: 1, nonce: null });
    expect(failed.lastError).toMatch(/^chain 31337: /);
    // The first backoff step: the next try not before 5 s later.
    expect(Date.parse(failed.nextAttemptAt!) - Date.parse(failed.updatedAt)).toBeGreaterThanOrEqual(4_900);
    await settleAll(relayerEnv(relayer.privateKey), tenant.id);
    expect((await operation(tenant.id, operationId)).status).toBe('succeeded');
    expect(logs()).not.toContain(DEAD_RPC);
    expect(logs()).not.toContain(relayer.privateKey.slice(2));
  });

  it('a missing or malformed RELAYER_PRIVATE_KEY or CHAINS is recorded by name, never by value, and retried', async () => {
    const logs = captureLogs();
    const { tenant, operationId } = await deployingXpToken();
    const cases: [Partial<Bindings>, RegExp][] = [
      [{ RELAYER_PRIVATE_KEY: '' }, /RELAYER_PRIVATE_KEY is not set/],
      [{ RELAYER_PRIVATE_KEY: 'not-a-key' }, /RELAYER_PRIVATE_KEY is not a 32-byte hex private key/],
      [{ CHAINS: '{"31337": ' }, /CHAINS is not valid JSON/],
      [{ CHAINS: JSON.stringify({ 5: DEAD_RPC }) }, /chain 31337: RPC unavailable \(not configured in CHAINS\)/],
    ];
    for (const [overrides, reason] of cases) {
      const result = await deliver({ ...relayerEnv(relayer.privateKey), ...overrides }, [operationId]);
      expect(result.retryMessages).toHaveLength(1);
      expect((await operation(tenant.id, operationId)).lastError).toMatch(reason);
    }
    expect((await operation(tenant.id, operationId)).errorCount).toBe(cases.length);
    expect(logs()).not.toContain('not-a-key');
    expect(logs()).not.toContain(DEAD_RPC);
  });

  it('acknowledges and drops a message without an operation id, or naming no operation', async () => {
    const result = await deliver(relayerEnv(relayer.privateKey), ['op_does_not_exist']);
    expect(result.explicitAcks).toHaveLength(1);
  });

  it('a failed queue send does not fail the write: the operation stays queued and the cron enqueues it again once stale', async () => {
    const { tenant } = await deployingXpToken();
    await settleAll(relayerEnv(relayer.privateKey), tenant.id);
    const key = await createTestApiKey(tenant.id);
    const customer = await createCustomerViaApi(key);
    const broken = onchainContext({ ...env, SETTLEMENT_QUEUE: { send: () => Promise.reject(new Error('queue down')), sendBatch: () => Promise.reject(new Error('queue down')) } as unknown as Bindings['SETTLEMENT_QUEUE'] });
    const logs = captureLogs();
    const tx = await earnXp(services(tenant.id, { onchain: broken, requestId: 'req_enqueue_down' }), { userId: customer.id, type: 'xp_earn', amount: 5 });
    expect(tx.status).toBe('initialized');
    expect(logs()).toContain('"message":"settlement enqueue failed; the receipts job will re-enqueue","request_id":"req_enqueue_down"');
    const [stranded] = await operationIds(['queued'], tenant.id);
    expect(stranded).toBeDefined();
    await db(tenant.id).update(onchainOperations).set({ updatedAt: '2000-01-01T00:00:00.000Z' }).where(eq(onchainOperations.id, stranded!));
    const sent: unknown[] = [];
    const recorder = { send: async (body: unknown) => void sent.push(body), sendBatch: async (messages: { body: unknown }[]) => void sent.push(...messages.map((m) => m.body)) };
    await runCron(relayerEnv(relayer.privateKey, { SETTLEMENT_QUEUE: recorder as unknown as Bindings['SETTLEMENT_QUEUE'] }));
    expect(sent).toContainEqual({ operationId: stranded, shard: shardOf(tenant.id) });
  });

  it('never puts the wallet mnemonic or relayer key in a response', async () => {
    const { tenant, asset } = await deployingXpToken();
    const res = await portalCall(tenant.owner, 'GET', `/api/v1/tenant/${tenant.id}/onchain-assets/${asset.id}`);
    expect(res.text).not.toContain(testKeys.walletMnemonic);
    expect(res.text).not.toContain(String(env.RELAYER_PRIVATE_KEY).slice(2));
  });
});
