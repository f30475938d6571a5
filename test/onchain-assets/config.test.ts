/**
 * Chain and relayer configuration as asset creation meets it. CHAINS and RELAYER_PRIVATE_KEY cannot
 * change per test through SELF, so these tests hand the Worker (and the service) their own env.
 */
import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ChainConfigError } from '../../src/chain/chains';
import { onchainContext, type OnchainContext } from '../../src/chain/context';
import { RelayerConfigError } from '../../src/chain/relayer';
import { onchainAssets, onchainOperations } from '../../src/db/schema';
import { ApiError } from '../../src/lib/errors';
import { onchainAssetSchema } from '../../src/schemas/internal-transaction';
import { createOnchainAsset } from '../../src/services/onchain-assets';
import { deployReference, fundedRelayer } from '../support/chain';
import { BASE, callWorker, expectError, expectOk, type JsonResponse } from '../support/http';
import { createTenant, db, services, type TestTenant } from '../support/world';
import { assetsPath } from './helpers';

/**
 * Nothing listens on the discard port: connections are refused at once. (workerd logs every refused
 * fetch as "uncaught exception ... Network connection lost" even when the caller catches it.)
 */
const CLOSED_RPC = 'http://127.0.0.1:9';
const unreachableChains = JSON.stringify({ '31337': CLOSED_RPC });

let erc20: `0x${string}`;

beforeAll(async () => {
  const relayer = await fundedRelayer();
  erc20 = await deployReference('erc20', { owner: relayer.address, deployerKey: relayer.privateKey });
});

/** A portal call through the Worker with env overrides (as if deployed with those vars). */
function callWithEnv(overrides: Partial<typeof env>, tenant: TestTenant, body: unknown): Promise<JsonResponse> {
  const request = new Request(`${BASE}${assetsPath(tenant.id)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.owner.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return callWorker(request, { ...env, ...overrides });
}

const registerBody = () => ({ type: 'erc20' as const, chain_id: 31337, name: 'T', symbol: 'T', decimals: 0, asset_address: erc20 });
const deployBody = { type: 'erc721' as const, chain_id: 31337, name: 'T', symbol: 'T' };

describe('an unreachable chain RPC', () => {
  it('service: 422 at chain_id naming the chain, never its URL', async () => {
    const tenant = await createTenant();
    const ctx = onchainContext({ ...env, CHAINS: unreachableChains });
    const error = await createOnchainAsset(services(tenant.id, { onchain: ctx }), registerBody()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'chain_id', message: 'chain 31337 RPC is unreachable; try again later' }] });
    expect(await db(tenant.id).select().from(onchainAssets).where(eq(onchainAssets.tenantId, tenant.id))).toEqual([]);
  });

  it('HTTP: the same 422 envelope, no URL in the body', async () => {
    const tenant = await createTenant();
    const res = await callWithEnv({ CHAINS: unreachableChains }, tenant, registerBody());
    expectError(res, 422, 'VALIDATION_FAILED', 'chain 31337 RPC is unreachable; try again later');
    expect(res.text).not.toContain('127.0.0.1');
  });
});

describe('malformed CHAINS', () => {
  it.each([
    ['not JSON', '{31337: http://x}'],
    ['an array', '["http://127.0.0.1:8545"]'],
    ['a bad chain id', '{"abc": "http://127.0.0.1:8545"}'],
    ['a non-http URL', '{"31337": "ws://127.0.0.1:8545"}'],
  ])('%s: 503 SERVICE_MISCONFIGURED naming CHAINS, on register and deploy', async (_name, chains) => {
    const tenant = await createTenant();
    await expect(createOnchainAsset(services(tenant.id, { onchain: onchainContext({ ...env, CHAINS: chains }) }), registerBody())).rejects.toBeInstanceOf(ChainConfigError);
    for (const body of [registerBody(), deployBody]) {
      const res = await callWithEnv({ CHAINS: chains }, tenant, body);
      expectError(res, 503, 'SERVICE_MISCONFIGURED', /^CHAINS /);
      expect(res.text).not.toContain('127.0.0.1');
    }
  });
});

describe('the relayer key', () => {
  it('deploy: 503 SERVICE_MISCONFIGURED when RELAYER_PRIVATE_KEY is missing or invalid, and nothing is written', async () => {
    const tenant = await createTenant();
    for (const key of ['', 'not-a-key']) {
      const res = await callWithEnv({ RELAYER_PRIVATE_KEY: key }, tenant, deployBody);
      expectError(res, 503, 'SERVICE_MISCONFIGURED', /^RELAYER_PRIVATE_KEY /);
      expect(res.text).not.toContain('not-a-key');
    }
    await expect(createOnchainAsset(services(tenant.id, { onchain: onchainContext({ ...env, RELAYER_PRIVATE_KEY: undefined }) }), deployBody)).rejects.toBeInstanceOf(RelayerConfigError);
    expect(await db(tenant.id).select().from(onchainAssets).where(eq(onchainAssets.tenantId, tenant.id))).toEqual([]);
    expect(await db(tenant.id).select().from(onchainOperations).where(eq(onchainOperations.tenantId, tenant.id))).toEqual([]);
  });

  it('register needs no relayer key', async () => {
    const tenant = await createTenant();
    const res = await callWithEnv({ RELAYER_PRIVATE_KEY: '' }, tenant, registerBody());
    expectOk(res, 201, onchainAssetSchema);
  });
});

describe('deploy hands the operation to the settlement queue', () => {
  it('enqueues exactly the operation written with the asset', async () => {
    const tenant = await createTenant();
    const enqueued: string[] = [];
    const ctx: OnchainContext = { ...onchainContext(env), enqueue: async (_shard, ids) => void enqueued.push(...ids) };
    const asset = await createOnchainAsset(services(tenant.id, { onchain: ctx }), { ...deployBody, key: 'collectible' });
    const operations = await db(tenant.id)
      .select()
      .from(onchainOperations)
      .where(and(eq(onchainOperations.tenantId, tenant.id), eq(onchainOperations.onchainAssetId, asset.id!)));
    expect(operations.map((op) => op.id)).toEqual(enqueued);
    expect(operations[0]).toMatchObject({ kind: 'deploy', status: 'queued', chainId: 31337 });
  });

  it('answers the created asset even when the queue send fails (the cron re-enqueues the queued operation)', async () => {
    const tenant = await createTenant();
    const ctx: OnchainContext = { ...onchainContext(env), enqueue: () => Promise.reject(new Error('queue down')) };
    const asset = await createOnchainAsset(services(tenant.id, { onchain: ctx }), { ...deployBody, key: 'offline' });
    expect(asset.status).toBe('deploying');
    const [operation] = await db(tenant.id).select().from(onchainOperations).where(and(eq(onchainOperations.tenantId, tenant.id), eq(onchainOperations.onchainAssetId, asset.id!)));
    expect(operation).toMatchObject({ kind: 'deploy', status: 'queued' });
  });
});
