/**
 * What the relayer pays for (issue 20): a gas ceiling per operation kind, a daily gas budget per
 * tenant, a cap on platform deploys per tenant, and a watch on the relayer's own balance.
 */
import { and, eq } from 'drizzle-orm';
import { parseEther, type Address, type Hex } from 'viem';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { blockchainTransactions, onchainOperations, tenantGasUsage } from '../../src/db/schema';
import { onchainAssetSchema } from '../../src/schemas/internal-transaction';
import { runContext } from '../../src/services/context';
import { watchRelayer } from '../../src/services/relayer-watch';
import { anvilRpc, fundedRelayer, publicClientFor, walletClientFor } from '../support/chain';
import { callWorker, expectError, expectOk } from '../support/http';
import { portalRequest, race } from '../support/race';
import { deliver, operationIds, relayerEnv, runCron, settleAll } from '../support/settlement';
import { createTestApiKey, db, gatewayCall, otherTenants, portalCall, type TestTenant } from '../support/world';
import { createAsset, createReward, deployedAsset, earn, getCustomer, getRedemption, newCustomer, newWorld, redeem, type World } from './fixtures';
import { inspected } from '../support/log-capture';

let relayer: { privateKey: Hex; address: Address };
beforeAll(async () => {
  relayer = await fundedRelayer();
});
afterEach(() => vi.restoreAllMocks());

/**
 * A contract whose every call succeeds after burning about 10 M gas (a 384,000-round loop of 26 gas):
 * what a hostile tenant registers to make the relayer pay. Hand-assembled, so it never enters the
 * Worker's artifacts: init code (copy the 14-byte runtime and return it) + runtime
 * `PUSH3 0x05dc00; JUMPDEST; PUSH1 1; SWAP1; SUB; DUP1; PUSH1 4; JUMPI; STOP`.
 */
const GAS_GUZZLER: Hex = `0x${'600e80600b6000396000f3'}${'6205dc005b600190038060045700'}`;

async function deployGuzzler(): Promise<Address> {
  const hash = await walletClientFor(31337, relayer.privateKey).deployContract({ abi: [], bytecode: GAS_GUZZLER });
  const receipt = await publicClientFor(31337).waitForTransactionReceipt({ hash });
  return receipt.contractAddress!;
}

async function operationsOfTenant(tenantId: string) {
  return db(tenantId).select().from(onchainOperations).where(eq(onchainOperations.tenantId, tenantId));
}

async function gasUsedToday(tenantId: string) {
  const [row] = await db(tenantId).select().from(tenantGasUsage).where(eq(tenantGasUsage.tenantId, tenantId));
  return row;
}

const deployBody = { type: 'erc20', chain_id: 31337, key: 'xp', name: 'XP', symbol: 'XP', decimals: 0 };

describe('a gas ceiling per operation kind', () => {
  it('a registered contract whose mint burns 10 M gas: the redemption fails before anything is sent, named, and refunded', async () => {
    const world = await newWorld('ceiling');
    const guzzler = await deployGuzzler();
    const badge = await createAsset(world, { type: 'erc721', key: 'badge', asset_address: guzzler });
    const customer = await newCustomer(world);
    await earn(world, customer.id, 30);
    const reward = await createReward(world, { xp_cost: 10, onchain_asset_id: badge.id, stock: 5 });
    const redemption = await redeem(world, customer.id, reward.id);
    expect((await getCustomer(world, customer.id)).xp_balance).toBe('20');
    const nonceBefore = await publicClientFor(31337).getTransactionCount({ address: relayer.address, blockTag: 'pending' });

    await settleAll(relayerEnv(relayer.privateKey), world.tenant.id);

    const [mint] = (await operationsOfTenant(world.tenant.id)).filter((op) => op.kind === 'mint');
    expect(mint).toMatchObject({ status: 'failed', nonce: null, reservedGas: null });
    expect(mint!.lastError).toMatch(/^given up: chain 31337: a mint of this contract needs \d+ gas, more than the 250000 allowed \(MAX_GAS_MINT\)$/);
    expect(await db(world.tenant.id).select().from(blockchainTransactions).where(eq(blockchainTransactions.operationId, mint!.id))).toEqual([]);
    expect(await publicClientFor(31337).getTransactionCount({ address: relayer.address, blockTag: 'pending' })).toBe(nonceBefore);
    expect((await getRedemption(world, redemption.id)).status).toBe('failed');
    expect((await getCustomer(world, customer.id)).xp_balance).toBe('30');
    expect((await portalCall(world.tenant.owner, 'GET', `/api/v1/tenant/${world.tenant.id}/rewards/${reward.id}`)).body).toMatchObject({ data: { stock: 5 } });
  });

  it('a deploy above MAX_GAS_DEPLOY fails before it takes a nonce, and the asset is failed', async () => {
    const world = await newWorld('ceiling');
    const asset = await createAsset(world, { type: 'erc20', key: 'xp', name: 'XP', symbol: 'XP' });
    await settleAll(relayerEnv(relayer.privateKey, { MAX_GAS_DEPLOY: '100000' }), world.tenant.id);
    const [deploy] = await operationsOfTenant(world.tenant.id);
    expect(deploy).toMatchObject({ kind: 'deploy', status: 'failed', nonce: null });
    expect(deploy!.lastError).toMatch(/more than the 100000 allowed \(MAX_GAS_DEPLOY\)/);
    expect((await portalCall(world.tenant.owner, 'GET', `/api/v1/tenant/${world.tenant.id}/onchain-assets/${asset.id}`)).body).toMatchObject({ data: { status: 'failed' } });
  });
});

describe('a daily gas budget per tenant', () => {
  /** A tenant (a new one unless given) with a settled XP token and a customer; the budget left today is `room` gas. */
  async function tenantWithRoom(room: number, tenant?: TestTenant) {
    const world = tenant ? { tenant, key: await createTestApiKey(tenant.id) } : await newWorld('budget');
    await deployedAsset(world, relayerEnv(relayer.privateKey), { type: 'erc20', key: 'xp', decimals: 0, name: 'XP', symbol: 'XP' });
    const customer = await newCustomer(world);
    const used = (await gasUsedToday(world.tenant.id))!.gasReserved;
    return { world, customer, budgetEnv: relayerEnv(relayer.privateKey, { TENANT_DAILY_GAS_BUDGET: String(used + room) }) };
  }

  const earnRequest = (world: World, userId: string) =>
    gatewayCall(world.key, 'POST', '/api/v1/gateway/xp', { body: { user_id: userId, type: 'xp_earn', amount: '5' } });

  it('past the budget the operation fails (refunded, named); new onchain work of the tenant is refused with 429 until the day ends; another tenant (on another shard or the same one) goes on', async () => {
    const { world, customer, budgetEnv } = await tenantWithRoom(100_000); // room for one mint (about 60-80 k with the margin), not two
    const others: Awaited<ReturnType<typeof tenantWithRoom>>[] = [];
    for (const tenant of await otherTenants(world.tenant.id, 'budget')) others.push(await tenantWithRoom(100_000, tenant));
    const first = await earn(world, customer.id, 5);
    const second = await earn(world, customer.id, 7);
    await deliver(budgetEnv, [...(await operationIds(['queued'], world.tenant.id))]);
    await runCron(budgetEnv);

    const mints = (await operationsOfTenant(world.tenant.id)).filter((op) => op.kind === 'mint');
    expect(mints.map((op) => op.status).sort()).toEqual(['failed', 'succeeded']);
    const refused = mints.find((op) => op.status === 'failed')!;
    expect(refused).toMatchObject({ nonce: null, reservedGas: null });
    expect(refused.lastError).toBe(`given up: chain 31337: the tenant's onchain gas budget for today (${(await gasUsedToday(world.tenant.id))!.budget} gas, TENANT_DAILY_GAS_BUDGET) is used up`);
    expect((await gasUsedToday(world.tenant.id))!.exhausted).toBe(true);
    // One of the two earns completed, the other failed and changed nothing.
    const balance = (await getCustomer(world, customer.id)).xp_balance;
    expect(['5', '7']).toContain(balance);
    expect([first.id, second.id]).toContain(refused.internalTransactionId);

    const res = await earnRequest(world, customer.id);
    expectError(res, 429, 'ONCHAIN_BUDGET_EXHAUSTED', /onchain gas budget for today is used up: work that settles onchain is refused until 00:00 UTC/);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    // The refused request wrote nothing: no third mint, no third transaction.
    expect((await operationsOfTenant(world.tenant.id)).filter((op) => op.kind === 'mint')).toHaveLength(2);
    expectError(await portalCall(world.tenant.owner, 'POST', `/api/v1/tenant/${world.tenant.id}/onchain-assets`, { ...deployBody, key: 'other' }), 429, 'ONCHAIN_BUDGET_EXHAUSTED');

    // Another tenant is unaffected: it earns and settles.
    for (const other of others) {
      await earn(other.world, other.customer.id, 9);
      await settleAll(other.budgetEnv, other.world.tenant.id);
      expect((await getCustomer(other.world, other.customer.id)).xp_balance).toBe('9');
    }
  });

  it('many operations at once never reserve more than the budget', async () => {
    const { world, customer, budgetEnv } = await tenantWithRoom(250_000);
    for (let i = 0; i < 8; i += 1) await earn(world, customer.id, 1);
    await deliver(budgetEnv, await operationIds(['queued'], world.tenant.id)); // one batch: settled concurrently
    const usage = (await gasUsedToday(world.tenant.id))!;
    expect(usage.gasReserved).toBeLessThanOrEqual(usage.budget);
    const mints = (await operationsOfTenant(world.tenant.id)).filter((op) => op.kind === 'mint');
    const reserved = mints.reduce((sum, op) => sum + (op.reservedGas ?? 0), 0);
    expect(usage.gasReserved - reserved).toBe(usage.budget - 250_000); // the deploy's share, before the mints
    expect(mints.filter((op) => op.status === 'failed').length).toBeGreaterThan(0);
    expect(mints.filter((op) => op.reservedGas !== null).length).toBeGreaterThan(0);
  });

  it('a budget raised by the operator is given back by the minute cron', async () => {
    const { world, customer, budgetEnv } = await tenantWithRoom(30_000); // no mint fits
    await earn(world, customer.id, 5);
    await settleAll(budgetEnv, world.tenant.id);
    expectError(await earnRequest(world, customer.id), 429, 'ONCHAIN_BUDGET_EXHAUSTED');
    await runCron(budgetEnv); // the same budget: still exhausted
    expectError(await earnRequest(world, customer.id), 429, 'ONCHAIN_BUDGET_EXHAUSTED');
    await runCron(relayerEnv(relayer.privateKey)); // the default, far larger
    expect((await earnRequest(world, customer.id)).status).toBe(201);
  });
});

describe('a cap on platform deploys per tenant', () => {
  it('one deploy past TENANT_DEPLOY_LIMIT is a 409 and writes nothing; registering a contract is still allowed', async () => {
    const world = await newWorld('deploys');
    const limited = relayerEnv(relayer.privateKey, { TENANT_DEPLOY_LIMIT: '2' });
    const create = (key: string, extra: Record<string, unknown> = {}) =>
      callWorker(portalRequest(world.tenant.owner, 'POST', `/api/v1/tenant/${world.tenant.id}/onchain-assets`, { ...deployBody, key, ...extra }), limited);
    expectOk(await create('one'), 201, onchainAssetSchema);
    expectOk(await create('two'), 201, onchainAssetSchema);
    const refused = expectError(await create('three'), 409, 'CONFLICT', /This tenant has made 2 platform deploys, the most the platform allows per tenant/);
    expect(refused.errors).toEqual([{ path: '', message: refused.message }]);
    expect((await operationsOfTenant(world.tenant.id)).filter((op) => op.kind === 'deploy')).toHaveLength(2);
    // Registering an existing contract is no deploy.
    const guzzler = await deployGuzzler();
    expectOk(await create('registered', { type: 'erc721', asset_address: guzzler, decimals: undefined }), 201, onchainAssetSchema);
  });

  it('creates fired at once never pass the limit', async () => {
    const world = await newWorld('deploys');
    const path = `/api/v1/tenant/${world.tenant.id}/onchain-assets`;
    for (let i = 0; i < 18; i += 1) expectOk(await portalCall(world.tenant.owner, 'POST', path, { ...deployBody, key: `k${i}` }), 201, onchainAssetSchema);
    const { responses, held } = await race(
      [0, 1, 2, 3, 4].map((i) => portalRequest(world.tenant.owner, 'POST', path, { ...deployBody, key: `race${i}` })),
      /insert into "deploy_limit_guard"/i,
    );
    expect(held).toBe(5);
    expect(responses.map((res) => res.status).sort()).toEqual([201, 201, 409, 409, 409]);
    const deploys = await db(world.tenant.id).select().from(onchainOperations).where(and(eq(onchainOperations.tenantId, world.tenant.id), eq(onchainOperations.kind, 'deploy')));
    expect(deploys).toHaveLength(20);
  });
});

describe("the relayer's balance", () => {
  it('below RELAYER_MIN_BALANCE is logged as an error by the minute cron, once an hour per chain', async () => {
    const poor = await fundedRelayer();
    await anvilRpc(31337, 'anvil_setBalance', [poor.address, `0x${parseEther('0.01').toString(16)}`]);
    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation(inspected((line: unknown) => void errors.push(String(line))));
    const lowLines = () => errors.filter((line) => line.includes('relayer balance is low') && line.includes(poor.address) && line.includes('"chain_id":31337'));

    const watched = relayerEnv(poor.privateKey, { RELAYER_MIN_BALANCE: '0.05' });
    await runCron(watched);
    expect(lowLines()).toHaveLength(1);
    expect(JSON.parse(lowLines()[0]!)).toMatchObject({ level: 'error', balance_wei: String(parseEther('0.01')), minimum_wei: String(parseEther('0.05')) });
    await runCron(watched);
    expect(lowLines()).toHaveLength(1);

    // An hour later (the service's clock moved), once more: the watch is a run over the directory and every shard.
    const later = (ms: number) => runContext(watched, { now: () => new Date(Date.now() + ms) });
    await watchRelayer(later(61 * 60 * 1000));
    expect(lowLines()).toHaveLength(2);
    // Funded above the threshold: nothing more is logged.
    await anvilRpc(31337, 'anvil_setBalance', [poor.address, `0x${parseEther('1').toString(16)}`]);
    await watchRelayer(later(3 * 3600 * 1000));
    expect(lowLines()).toHaveLength(2);
  });
});
