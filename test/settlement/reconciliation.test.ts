import { beforeAll, describe, expect, it } from 'vitest';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { referenceContracts } from '../../src/chain/artifacts.generated';
import type { Bindings } from '../../src/env';
import { reconciliationSchema } from '../../src/schemas/onchain-asset';
import { balanceOf, fundedRelayer, publicClientFor, walletClientFor } from '../support/chain';
import { expectOk } from '../support/http';
import { relayerEnv, runCron, settleAll } from '../support/settlement';
import { portalCall } from '../support/world';
import { adjust, createReward, deployedAsset, earn, getAsset, getCustomer, getRedemption, newCustomer, newWorld, redeem, type World } from './fixtures';

let relayer: { privateKey: Hex; address: Address };
let runEnv: Bindings;

beforeAll(async () => {
  relayer = await fundedRelayer();
  runEnv = relayerEnv(relayer.privateKey);
});

async function reconciliation(world: World, assetId: string) {
  return expectOk(await portalCall(world.tenant.owner, 'GET', `/api/v1/tenant/${world.tenant.id}/onchain-assets/${assetId}/reconciliation`), 200, reconciliationSchema);
}

describe('reconciliation after settlement', () => {
  it('earns, a redemption burn and a negative adjustment reconcile to a difference of 0', { timeout: 60_000 }, async () => {
    const world = await newWorld('recon');
    const xp = await deployedAsset(world, runEnv, { type: 'erc20', key: 'xp', decimals: 2, name: 'XP', symbol: 'XP' });
    const [alice, bob] = await Promise.all([newCustomer(world), newCustomer(world)]);
    await earn(world, alice.id, 300);
    await earn(world, bob.id, 120);
    await earn(world, alice.id, 50);
    await settleAll(runEnv, world.tenant.id);

    const reward = await createReward(world, { xp_cost: 80 });
    const redemption = await redeem(world, alice.id, reward.id);
    const adjustment = await adjust(world, bob.id, -20);
    expect(adjustment.status).toBe('initialized');
    await settleAll(runEnv, world.tenant.id);
    expect((await getRedemption(world, redemption.id)).status).toBe('completed');

    // The indexer runs beside the receipts job in the same cron: run it until it has caught up with the chain.
    const head = await publicClientFor(31337).getBlockNumber({ cacheTime: 0 });
    for (let round = 0; round < 10 && BigInt((await reconciliation(world, xp.id ?? '')).last_indexed_block ?? -1) < head; round += 1) await runCron(runEnv);

    const report = await reconciliation(world, xp.id ?? '');
    expect(report.asset_id).toBe(xp.id);
    expect(report.key).toBe('xp');
    expect(report.decimals).toBe(2);
    expect(BigInt(report.last_indexed_block ?? -1)).toBeGreaterThanOrEqual(head);
    // alice 300 + 50 - 80 = 270, bob 120 - 20 = 100: 370 XP = 37000 base units.
    expect(report.ledger_total).toBe('37000');
    expect(report.onchain_total).toBe('37000');
    expect(report.difference).toBe('0');
    expect(report.customers).toEqual([]);
    expect(report).toMatchObject({ total_supply: '37000', supply_source: 'total_supply', supply_difference: '0' });

    expect(await balanceOf(31337, 'erc20', xp.asset_address, alice.wallet)).toBe(27000n);
    expect(await balanceOf(31337, 'erc20', xp.asset_address, bob.wallet)).toBe(10000n);
    expect((await getCustomer(world, alice.id)).xp_balance).toBe('270');
    expect((await getCustomer(world, bob.id)).xp_balance).toBe('100');
    expect((await getAsset(world, xp.id ?? '')).status).toBe('active');
  });

  it('an unsettled earn shows as no difference on the ledger side until it completes', { timeout: 60_000 }, async () => {
    const world = await newWorld('recon');
    const xp = await deployedAsset(world, runEnv, { type: 'erc20', key: 'xp', decimals: 0, name: 'XP', symbol: 'XP' });
    const customer = await newCustomer(world);
    await earn(world, customer.id, 10);
    // Not delivered yet: neither side has it.
    const before = await reconciliation(world, xp.id ?? '');
    expect(before.ledger_total).toBe('0');
    expect(before.difference).toBe('0');
    await settleAll(runEnv, world.tenant.id);
    const head = await publicClientFor(31337).getBlockNumber({ cacheTime: 0 });
    for (let round = 0; round < 10 && BigInt((await reconciliation(world, xp.id ?? '')).last_indexed_block ?? -1) < head; round += 1) await runCron(runEnv);
    const after = await reconciliation(world, xp.id ?? '');
    expect(after.ledger_total).toBe('10');
    expect(after.onchain_total).toBe('10');
    expect(after.customers).toEqual([]);
  });

  it('a mint outside the platform shows as a supply difference, to any address, on an erc20 and an erc721', { timeout: 60_000 }, async () => {
    const world = await newWorld('recon');
    const xp = await deployedAsset(world, runEnv, { type: 'erc20', key: 'xp', decimals: 0, name: 'XP', symbol: 'XP' });
    const badge = await deployedAsset(world, runEnv, { type: 'erc721', key: 'badge', name: 'Badge', symbol: 'BDG' });
    const customer = await newCustomer(world);
    await earn(world, customer.id, 25);
    await settleAll(runEnv, world.tenant.id);
    const redemption = await redeem(world, customer.id, (await createReward(world, { xp_cost: 5, onchain_asset_id: badge.id })).id);
    await settleAll(runEnv, world.tenant.id);
    expect((await getRedemption(world, redemption.id)).status).toBe('completed');

    // The relayer owns every platform contract: whoever holds its key (or a registered contract's
    // own minter) can mint outside the ledger, e.g. to an address that is no customer's wallet.
    const outsider = privateKeyToAccount(generatePrivateKey()).address;
    const owner = walletClientFor(31337, relayer.privateKey);
    await owner.writeContract({ address: xp.asset_address, abi: referenceContracts.erc20.abi, functionName: 'mint', args: [outsider, 1000n] });
    const last = await owner.writeContract({ address: badge.asset_address, abi: referenceContracts.erc721.abi, functionName: 'mint', args: [outsider] });
    const head = (await publicClientFor(31337).waitForTransactionReceipt({ hash: last })).blockNumber;
    for (const asset of [xp, badge]) {
      for (let round = 0; round < 10 && BigInt((await reconciliation(world, asset.id ?? '')).last_indexed_block ?? -1) < head; round += 1) await runCron(runEnv);
    }

    // The platform's wallets still agree with the ledger; the supply does not.
    const xpReport = await reconciliation(world, xp.id ?? '');
    expect(xpReport).toMatchObject({ ledger_total: '20', onchain_total: '20', difference: '0', customers: [] });
    expect(xpReport).toMatchObject({ total_supply: '1020', supply_source: 'total_supply', supply_difference: '1000' });
    const badgeReport = await reconciliation(world, badge.id ?? '');
    expect(badgeReport).toMatchObject({ ledger_total: '1', onchain_total: '1', difference: '0', customers: [] });
    expect(badgeReport).toMatchObject({ total_supply: '2', supply_source: 'indexed_transfers', supply_difference: '1' });
  });
});
