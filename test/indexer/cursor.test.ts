/**
 * The indexer's cursor: chain resets, small chunks and bounded runs, overlapping runs, failing
 * chains, ERC-1155 batches and which assets are followed at all.
 */
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { encodeAbiParameters, getAddress, pad, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { referenceContracts } from '../../src/chain/artifacts.generated';
import { TRANSFER_BATCH_TOPIC, TRANSFER_SINGLE_TOPIC } from '../../src/chain/logs';
import { customerAssetBalances, onchainAssets } from '../../src/db/schema';
import { indexOnchainAssets } from '../../src/jobs/asset-indexer';
import { indexAssetTransfers } from '../../src/services/asset-indexer';
import { anvilRpc, fundedRelayer, publicClientFor, walletClientFor } from '../support/chain';
import { db, shardRun } from '../support/world';
import { assetRow, deploy, expectIndexedAsChain, holdingsOfAsset, registerAsset, tenantWithHolders, tokenOwner } from './fixtures';
import { inspected } from '../support/log-capture';

let owner: Awaited<ReturnType<typeof fundedRelayer>>;

beforeAll(async () => {
  owner = await fundedRelayer();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** A tenant with `holders` customers and a fresh ERC-20 registered for it, minted `amounts` in order. */
async function mintedPoints(holders: number, amounts: readonly bigint[], extra: { asDeployed?: boolean } = {}) {
  const world = await tenantWithHolders(holders);
  const erc20 = await deploy('erc20', owner.privateKey, owner.address);
  const asset = await registerAsset(world.tenant.id, 'erc20', erc20.address, extra.asDeployed ? { deployTxHash: erc20.hash, deployedAt: new Date().toISOString() } : {});
  const tokens = tokenOwner(owner.privateKey);
  for (const [i, amount] of amounts.entries()) await tokens.mint20(erc20.address, world.holders[i % holders]!.wallet.address as Address, amount);
  await tokens.settled();
  return { ...world, asset, erc20 };
}

describe('genesis hash', () => {
  it('rebuilds an index made on another chain history (local node restarted, D1 kept)', async () => {
    const { holders, asset } = await mintedPoints(1, [1n, 2n, 3n]);
    await indexOnchainAssets(env);
    const genesis = (await publicClientFor(31337).getBlock({ blockNumber: 0n })).hash;
    expect((await assetRow(asset.tenantId, asset.id)).indexedGenesisHash).toBe(genesis);

    // What a previous chain left behind: another genesis, a balance and counters that no longer exist.
    await db(asset.tenantId).update(onchainAssets).set({ indexedGenesisHash: pad('0xdead'), totalTxns: 77, totalOwners: 5 }).where(eq(onchainAssets.id, asset.id));
    await db(asset.tenantId).update(customerAssetBalances).set({ balance: '999' }).where(eq(customerAssetBalances.onchainAssetId, asset.id));
    const warn = vi.spyOn(console, 'warn');
    await indexOnchainAssets(env);

    expect(warn.mock.calls.map(([line]) => String(line)).some((line) => line.includes(asset.id) && line.includes('index reset'))).toBe(true);
    const after = await expectIndexedAsChain(asset, holders, [''], 3);
    expect(after.indexedGenesisHash).toBe(genesis);
    expect((await holdingsOfAsset(asset.tenantId, asset.id)).map((row) => row.balance)).toEqual(['6']);
  });
});

describe('chunks and bounds', () => {
  it('gives the same result in 2-block chunks, at most 3 chunks per run', async () => {
    await indexOnchainAssets(env); // everything else in this file is current
    // As deployed by the platform: the scan starts at the deploy block, not at 0.
    const { holders, asset } = await mintedPoints(2, [10n, 20n, 30n, 40n, 50n, 60n, 70n, 80n, 90n, 100n, 110n, 120n], { asDeployed: true });
    const lastBlock = Number(await publicClientFor(31337).getBlockNumber({ cacheTime: 0 }));

    // The bound is per chain per shard (the cron runs the job on every shard): run it on the asset's
    // shard alone, so the other shard's lagging assets do not add their chunks to the count.
    let runs = 0;
    while (((await assetRow(asset.tenantId, asset.id)).lastIndexedBlock ?? -1) < lastBlock) {
      const summary = await indexAssetTransfers(shardRun(asset.tenantId), { chunkSize: 2, maxChunksPerRun: 3 });
      expect(summary.errors).toBe(0);
      expect(summary.chunks).toBeLessThanOrEqual(3);
      runs += 1;
      if (runs === 1) expect((await assetRow(asset.tenantId, asset.id)).lastIndexedBlock).toBeLessThan(lastBlock); // bounded: not done yet
      if (runs > 200) throw new Error('the indexer made no progress');
    }
    expect(runs).toBeGreaterThanOrEqual(2);
    await expectIndexedAsChain(asset, holders, [''], 12);
  });

  it("starts a platform-deployed asset at its deploy transaction's block, and at 0 when the chain does not know it", async () => {
    const world = await tenantWithHolders(1);
    const wallet = world.holders[0]!.wallet.address as Address;
    const [early, unknown] = [await deploy('erc20', owner.privateKey, owner.address), await deploy('erc20', owner.privateKey, owner.address)];
    const tokens = tokenOwner(owner.privateKey);
    await tokens.mint20(early.address, wallet, 5n);
    await tokens.mint20(unknown.address, wallet, 3n);
    const second = await walletClientFor(31337, owner.privateKey).writeContract({ address: early.address, abi: referenceContracts.erc20.abi, functionName: 'mint', args: [wallet, 7n] });
    await publicClientFor(31337).waitForTransactionReceipt({ hash: second });
    // As if deployed in the second mint's block, the first mint lies before the scan; a deploy
    // hash this chain does not know (a reset local node) falls back to a scan from block 0.
    const fromDeploy = await registerAsset(world.tenant.id, 'erc20', early.address, { deployTxHash: second });
    const fromZero = await registerAsset(world.tenant.id, 'erc20', unknown.address, { deployTxHash: pad('0xbeef') });
    await indexOnchainAssets(env);
    expect((await holdingsOfAsset(fromDeploy.tenantId, fromDeploy.id)).map((row) => row.balance)).toEqual(['7']);
    expect((await holdingsOfAsset(fromZero.tenantId, fromZero.id)).map((row) => row.balance)).toEqual(['3']);
  });

  it('counts every transfer once when two runs overlap', async () => {
    const { holders, asset } = await mintedPoints(2, [1n, 2n, 3n, 4n, 5n]);
    const [one, two] = await Promise.all([indexOnchainAssets(env), indexOnchainAssets(env)]);
    expect(one.errors + two.errors).toBe(0);
    expect(one.logs + two.logs).toBe(5); // the run that lost the race wrote nothing
    await expectIndexedAsChain(asset, holders, [''], 5);
  });
});

describe('failing chains', () => {
  it('logs a failing chain by id (never its URL) and still indexes the others', async () => {
    const { holders, asset } = await mintedPoints(1, [7n]);
    const unreachable = await registerAsset(asset.tenantId, 'erc20', privateKeyToAccount(generatePrivateKey()).address, { chainId: 31339 });
    const unconfigured = await registerAsset(asset.tenantId, 'erc20', privateKeyToAccount(generatePrivateKey()).address, { chainId: 424242 });
    const rpc = 'http://127.0.0.1:9/v2/SECRET-PROVIDER-KEY';
    const chains = JSON.stringify({ ...(JSON.parse(env.CHAINS!) as Record<string, string>), '31339': rpc });
    const error = vi.spyOn(console, 'error').mockImplementation(inspected(() => undefined));
    try {
      const summary = await indexOnchainAssets({ ...env, CHAINS: chains });
      expect(summary.errors).toBe(2);
      const lines = error.mock.calls.map(([line]) => JSON.parse(String(line)) as { level: string; chain_id: number; error: string });
      expect(lines.map((line) => line.chain_id).sort()).toEqual([31339, 424242]);
      for (const line of error.mock.calls.map(([text]) => String(text))) {
        expect(line).not.toContain('SECRET-PROVIDER-KEY');
        expect(line).not.toContain('127.0.0.1:9');
      }
      await expectIndexedAsChain(asset, holders, [''], 1);
      expect((await assetRow(unreachable.tenantId, unreachable.id)).lastIndexedBlock).toBeNull();
    } finally {
      await db(asset.tenantId).delete(onchainAssets).where(eq(onchainAssets.id, unreachable.id));
      await db(asset.tenantId).delete(onchainAssets).where(eq(onchainAssets.id, unconfigured.id));
    }
  });
});

/** Runtime code that emits LOG4 with calldata[0:128] as topics and the rest as data. */
const LOG4_EMITTER = '0x365f5f376060516040516020515f51608036036080a400';
const word = (address: string) => pad(address.toLowerCase() as Hex);

describe('ERC-1155 batches and followed assets', () => {
  it('indexes TransferBatch per id, skips logs that do not decode, and follows only deployed or registered assets', async () => {
    const world = await tenantWithHolders(2);
    const [first, second] = world.holders.map(({ wallet }) => wallet.address);
    const emitter = privateKeyToAccount(generatePrivateKey()).address;
    await anvilRpc(31337, 'anvil_setCode', [emitter, LOG4_EMITTER]);
    const asset = await registerAsset(world.tenant.id, 'erc1155', emitter, { status: 'inactive' });
    const failed = await registerAsset(world.tenant.id, 'erc20', privateKeyToAccount(generatePrivateKey()).address, { status: 'failed' });
    const deploying = await registerAsset(world.tenant.id, 'erc20', '', { status: 'deploying', assetAddress: null });

    const ids = (values: bigint[][]) => encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [values[0]!, values[1]!]);
    const emits: Hex[] = [
      `${TRANSFER_BATCH_TOPIC}${word(owner.address).slice(2)}${word(pad('0x0', { size: 20 })).slice(2)}${word(first!).slice(2)}${ids([[1n, 2n], [5n, 7n]]).slice(2)}` as Hex,
      `${TRANSFER_BATCH_TOPIC}${word(first!).slice(2)}${word(first!).slice(2)}${word(second!).slice(2)}${ids([[1n], [2n]]).slice(2)}` as Hex,
      `${TRANSFER_SINGLE_TOPIC}${word(second!).slice(2)}${word(second!).slice(2)}${word(owner.address).slice(2)}${encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [1n, 1n]).slice(2)}` as Hex,
      // Same topic0, ids and values of different lengths: not a token movement, not counted.
      `${TRANSFER_BATCH_TOPIC}${word(owner.address).slice(2)}${word(pad('0x0', { size: 20 })).slice(2)}${word(first!).slice(2)}${ids([[9n, 9n], [1n]]).slice(2)}` as Hex,
    ];
    const sender = walletClientFor(31337, owner.privateKey);
    let last: Hex = '0x';
    for (const data of emits) last = await sender.sendTransaction({ to: emitter, data });
    await publicClientFor(31337).waitForTransactionReceipt({ hash: last });

    await indexOnchainAssets(env);
    const rows = await holdingsOfAsset(asset.tenantId, asset.id);
    expect(rows.map((row) => ({ user: row.userAddress, tokenId: row.tokenId, balance: row.balance })).sort((a, b) => (a.user + a.tokenId).localeCompare(b.user + b.tokenId))).toEqual(
      [
        { user: getAddress(first!), tokenId: '1', balance: '3' },
        { user: getAddress(first!), tokenId: '2', balance: '7' },
        { user: getAddress(second!), tokenId: '1', balance: '1' },
      ].sort((a, b) => (a.user + a.tokenId).localeCompare(b.user + b.tokenId)),
    );
    expect(await assetRow(asset.tenantId, asset.id)).toMatchObject({ totalTxns: 3, totalOwners: 2 });
    for (const untouched of [failed, deploying]) {
      expect(await assetRow(untouched.tenantId, untouched.id)).toMatchObject({ lastIndexedBlock: null, indexedGenesisHash: null, totalTxns: null, totalOwners: null });
    }
  });
});
