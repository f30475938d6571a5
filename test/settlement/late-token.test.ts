/**
 * An XP token added to a live program (issue 27): customers who earned before it get their balance
 * minted by the settlement pipeline, once, before any later debit of theirs is burned; the token's
 * supply then equals the settled ledger.
 */
import { and, eq } from 'drizzle-orm';
import type { Address, Hex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { referenceContracts } from '../../src/chain/artifacts.generated';
import { onchainAssets, onchainOperations, xpTokenOpenings } from '../../src/db/schema';
import type { Bindings } from '../../src/env';
import { reconciliationSchema } from '../../src/schemas/onchain-asset';
import { onchainAssetSchema } from '../../src/schemas/internal-transaction';
import { openXpTokens } from '../../src/services/xp-openings';
import { balanceOf, deployReference, fundedRelayer, publicClientFor, walletClientFor } from '../support/chain';
import { expectOk } from '../support/http';
import { deliver, relayerEnv, runCron, settleAll } from '../support/settlement';
import { db, portalCall, shardRun } from '../support/world';
import { adjust, attemptsOf, createAsset, createReward, deployedAsset, earn, getCustomer, getRedemption, newCustomer, newWorld, operationsOf, redeem, type World } from './fixtures';

let relayer: { privateKey: Hex; address: Address };
let runEnv: Bindings;
beforeAll(async () => {
  relayer = await fundedRelayer();
  runEnv = relayerEnv(relayer.privateKey);
});

async function assetRow(tenantId: string, id: string) {
  const [row] = await db(tenantId).select().from(onchainAssets).where(eq(onchainAssets.id, id));
  return row!;
}

async function openingsOf(tenantId: string, assetId: string) {
  return db(tenantId).select().from(xpTokenOpenings).where(eq(xpTokenOpenings.onchainAssetId, assetId));
}

/** The opening operation of one customer on the token (its current epoch). */
async function openingOperation(tenantId: string, assetId: string, userId: string) {
  const asset = await assetRow(tenantId, assetId);
  const [opening] = await db(tenantId).select().from(xpTokenOpenings)
    .where(and(eq(xpTokenOpenings.onchainAssetId, assetId), eq(xpTokenOpenings.userId, userId), eq(xpTokenOpenings.epoch, asset.openingEpoch)));
  if (!opening?.operationId) return undefined;
  const [operation] = await db(tenantId).select().from(onchainOperations).where(eq(onchainOperations.id, opening.operationId));
  return operation;
}

/** Settles until the token's opening is complete and nothing is on its way. */
async function settleEverything(world: World, assetId: string) {
  for (let round = 0; round < 6; round += 1) {
    await settleAll(runEnv, world.tenant.id);
    const open = await db(world.tenant.id).select().from(onchainOperations).where(eq(onchainOperations.tenantId, world.tenant.id));
    if ((await assetRow(world.tenant.id, assetId)).openingCompletedAt !== null && open.every((op) => !['queued', 'submitted', 'waiting'].includes(op.status))) return;
    await runCron(runEnv);
  }
  throw new Error('the opening did not finish');
}

/** The reconciliation once the indexer has caught up with the chain. */
async function reconciled(world: World, assetId: string) {
  const path = `/api/v1/tenant/${world.tenant.id}/onchain-assets/${assetId}/reconciliation`;
  const head = await publicClientFor(31337).getBlockNumber({ cacheTime: 0 });
  for (let round = 0; round < 10; round += 1) {
    const report = expectOk(await portalCall(world.tenant.owner, 'GET', path), 200, reconciliationSchema);
    if (BigInt(report.last_indexed_block ?? -1) >= head) return report;
    await runCron(runEnv);
  }
  throw new Error('the indexer did not catch up');
}

const xpToken = { type: 'erc20', key: 'xp', decimals: 0, name: 'XP', symbol: 'XP' } as const;

describe('an XP token added to a live program', () => {
  it("the issue's customer: 300 earned before the token, 50 after, a 200 XP redemption completes and the chain agrees", { timeout: 60_000 }, async () => {
    const world = await newWorld('late');
    const alice = await newCustomer(world);
    const bob = await newCustomer(world);
    await earn(world, alice.id, 300);
    await earn(world, bob.id, 80);
    const xp = await deployedAsset(world, runEnv, xpToken);
    await earn(world, alice.id, 50);
    const redemption = await redeem(world, alice.id, (await createReward(world, { xp_cost: 200 })).id);
    await settleEverything(world, xp.id ?? '');

    expect((await getRedemption(world, redemption.id)).status).toBe('completed');
    expect((await getCustomer(world, alice.id)).xp_balance).toBe('150');
    expect(await balanceOf(31337, 'erc20', xp.asset_address, alice.wallet)).toBe(150n);
    expect(await balanceOf(31337, 'erc20', xp.asset_address, bob.wallet)).toBe(80n);
    const openings = await openingsOf(world.tenant.id, xp.id ?? '');
    expect(openings.map((row) => [row.userId, row.xp]).sort()).toEqual([[alice.id, 300], [bob.id, 80]].sort());
    const report = await reconciled(world, xp.id ?? '');
    expect(report).toMatchObject({ ledger_total: '230', onchain_total: '230', difference: '0', customers: [], total_supply: '230', supply_difference: '0' });
  });

  it('a redemption fired while the opening mint is in flight reserves at once and its burn waits for the mint', { timeout: 60_000 }, async () => {
    const world = await newWorld('late');
    const alice = await newCustomer(world);
    await earn(world, alice.id, 300);
    const xp = await deployedAsset(world, runEnv, xpToken);
    await openXpTokens(shardRun(world.tenant.id, {}, runEnv));
    const opening = (await openingOperation(world.tenant.id, xp.id ?? '', alice.id))!;
    expect(opening).toMatchObject({ kind: 'opening_mint', status: 'queued', amount: '300' });
    await deliver(runEnv, [opening.id]); // signed and sent; its receipt is not followed yet

    const redemption = await redeem(world, alice.id, (await createReward(world, { xp_cost: 200 })).id);
    expect((await getCustomer(world, alice.id)).xp_balance).toBe('100'); // reserved at once
    const [burn] = await db(world.tenant.id).select().from(onchainOperations).where(and(eq(onchainOperations.redemptionId, redemption.id ?? ''), eq(onchainOperations.kind, 'burn')));
    await deliver(runEnv, [burn!.id]);
    expect((await db(world.tenant.id).select().from(onchainOperations).where(eq(onchainOperations.id, burn!.id)))[0]).toMatchObject({ status: 'waiting', dependsOnOperationId: opening.id, nonce: null });

    await settleEverything(world, xp.id ?? '');
    expect((await getRedemption(world, redemption.id)).status).toBe('completed');
    expect(await balanceOf(31337, 'erc20', xp.asset_address, alice.wallet)).toBe(100n);
    expect(await reconciled(world, xp.id ?? '')).toMatchObject({ ledger_total: '100', onchain_total: '100', difference: '0', supply_difference: '0' });
  });

  it('a debit of a customer the opening has not reached yet opens that customer first', { timeout: 60_000 }, async () => {
    const world = await newWorld('late');
    const alice = await newCustomer(world);
    await earn(world, alice.id, 120);
    const xp = await deployedAsset(world, runEnv, xpToken);
    const adjustment = await adjust(world, alice.id, -20);
    const [burn] = await operationsOf(world.tenant.id, adjustment.id);
    await deliver(runEnv, [burn!.id]); // before any cron opened anyone
    const opening = (await openingOperation(world.tenant.id, xp.id ?? '', alice.id))!;
    expect(opening).toMatchObject({ kind: 'opening_mint', amount: '120' });
    expect((await db(world.tenant.id).select().from(onchainOperations).where(eq(onchainOperations.id, burn!.id)))[0]).toMatchObject({ status: 'waiting', dependsOnOperationId: opening.id });
    await settleEverything(world, xp.id ?? '');
    expect(await balanceOf(31337, 'erc20', xp.asset_address, alice.wallet)).toBe(100n);
    expect(await openingsOf(world.tenant.id, xp.id ?? '')).toHaveLength(1); // the cron found her opened and left her alone
  });

  it('a redelivered opening message, and a chunk run again after a crash, mint nothing twice', { timeout: 60_000 }, async () => {
    const world = await newWorld('late');
    const alice = await newCustomer(world);
    await earn(world, alice.id, 70);
    const xp = await deployedAsset(world, runEnv, xpToken);
    await openXpTokens(shardRun(world.tenant.id, {}, runEnv));
    const opening = (await openingOperation(world.tenant.id, xp.id ?? '', alice.id))!;
    await Promise.all([deliver(runEnv, [opening.id, opening.id]), deliver(runEnv, [opening.id])]);
    expect(await attemptsOf(world.tenant.id, opening.id)).toHaveLength(1);
    // The cursor as if the chunk's batch had never moved it: the same customers again.
    await db(world.tenant.id).update(onchainAssets).set({ openingCursor: 0, openingCompletedAt: null }).where(eq(onchainAssets.id, xp.id ?? ''));
    await openXpTokens(shardRun(world.tenant.id, {}, runEnv));
    await deliver(runEnv, [opening.id]);
    await settleEverything(world, xp.id ?? '');
    expect(await openingsOf(world.tenant.id, xp.id ?? '')).toHaveLength(1);
    expect(await attemptsOf(world.tenant.id, opening.id)).toHaveLength(1);
    expect(await balanceOf(31337, 'erc20', xp.asset_address, alice.wallet)).toBe(70n);
  });

  it('made active again after inactive: what was earned meanwhile off-chain is minted by a second opening', { timeout: 60_000 }, async () => {
    const world = await newWorld('late');
    const alice = await newCustomer(world);
    const xp = await deployedAsset(world, runEnv, xpToken);
    await earn(world, alice.id, 10);
    await settleEverything(world, xp.id ?? '');
    const path = `/api/v1/tenant/${world.tenant.id}/onchain-assets/${xp.id}`;
    expectOk(await portalCall(world.tenant.owner, 'PATCH', path, { status: 'inactive' }), 200, onchainAssetSchema);
    await earn(world, alice.id, 40); // off-chain while the token is inactive
    expectOk(await portalCall(world.tenant.owner, 'PATCH', path, { status: 'active' }), 200, onchainAssetSchema);
    expect((await assetRow(world.tenant.id, xp.id ?? '')).openingEpoch).toBe(2);
    await settleEverything(world, xp.id ?? '');
    expect(await balanceOf(31337, 'erc20', xp.asset_address, alice.wallet)).toBe(50n);
    expect((await openingsOf(world.tenant.id, xp.id ?? '')).map((row) => [row.epoch, row.xp]).sort()).toEqual([[1, 0], [2, 40]]);
    expect(await reconciled(world, xp.id ?? '')).toMatchObject({ ledger_total: '50', onchain_total: '50', difference: '0', supply_difference: '0' });
  });

  it('a registered token whose customers already hold some: what they hold counts toward what is minted', { timeout: 60_000 }, async () => {
    const world = await newWorld('late');
    const [alice, bob] = [await newCustomer(world), await newCustomer(world)];
    await earn(world, alice.id, 300);
    await earn(world, bob.id, 100);
    const address = await deployReference('erc20', { owner: relayer.address, deployerKey: relayer.privateKey });
    const owner = walletClientFor(31337, relayer.privateKey);
    const { abi } = referenceContracts.erc20;
    await owner.writeContract({ address, abi, functionName: 'mint', args: [alice.wallet, 100n] });
    const last = await owner.writeContract({ address, abi, functionName: 'mint', args: [bob.wallet, 500n] });
    await publicClientFor(31337).waitForTransactionReceipt({ hash: last });
    const xp = await createAsset(world, { ...xpToken, asset_address: address });
    await settleEverything(world, xp.id ?? '');

    expect(await balanceOf(31337, 'erc20', address, alice.wallet)).toBe(300n); // 100 held + 200 minted
    expect(await balanceOf(31337, 'erc20', address, bob.wallet)).toBe(500n); // held more than the ledger: nothing minted
    expect((await openingOperation(world.tenant.id, xp.id ?? '', bob.id))).toMatchObject({ status: 'succeeded', amount: '0' });
    expect(await attemptsOf(world.tenant.id, (await openingOperation(world.tenant.id, xp.id ?? '', bob.id))!.id)).toEqual([]);
    const report = await reconciled(world, xp.id ?? '');
    expect(report).toMatchObject({ ledger_total: '400', onchain_total: '800', difference: '400', total_supply: '800', supply_difference: '400' });
    expect(report.customers).toEqual([expect.objectContaining({ user_id: bob.id, ledger_balance: '100', onchain_balance: '500', difference: '400' })]);
  });

  it('an opening that fails (the contract will not let the relayer mint) fails the burn waiting for it, and the XP is given back', { timeout: 60_000 }, async () => {
    const world = await newWorld('late');
    const alice = await newCustomer(world);
    await earn(world, alice.id, 300);
    const stranger = await fundedRelayer();
    const address = await deployReference('erc20', { owner: stranger.address, deployerKey: stranger.privateKey });
    const xp = await createAsset(world, { ...xpToken, asset_address: address });
    const redemption = await redeem(world, alice.id, (await createReward(world, { xp_cost: 100 })).id);
    expect((await getCustomer(world, alice.id)).xp_balance).toBe('200');
    await settleEverything(world, xp.id ?? '');

    expect((await openingOperation(world.tenant.id, xp.id ?? '', alice.id))).toMatchObject({ status: 'failed' });
    expect((await getRedemption(world, redemption.id)).status).toBe('failed');
    expect((await getCustomer(world, alice.id)).xp_balance).toBe('300');
  });
});
