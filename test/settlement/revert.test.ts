import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Address, Hex } from 'viem';
import { internalTransactions } from '../../src/db/schema';
import type { Bindings } from '../../src/env';
import { balanceOf, fundedRelayer } from '../support/chain';
import { relayerEnv, settleAll } from '../support/settlement';
import { db } from '../support/world';
import {
  attemptsOf,
  createReward,
  earn,
  expectReceipt,
  getCustomer,
  getRedemption,
  getReward,
  linkedTransactions,
  newCustomer,
  newWorld,
  operationsOf,
  redeem,
  registeredAsset,
} from './fixtures';

let relayer: { privateKey: Hex; address: Address };
/** Owns the contracts the relayer may not mint on (so every mint reverts). */
let stranger: { privateKey: Hex; address: Address };
let runEnv: Bindings;

beforeAll(async () => {
  [relayer, stranger] = await Promise.all([fundedRelayer(), fundedRelayer()]);
  runEnv = relayerEnv(relayer.privateKey);
});

describe('a reverted chain transaction fails and refunds', () => {
  it('a reward on a contract the relayer does not own: redemption failed, XP and stock back', async () => {
    const world = await newWorld('revert');
    // No XP token: the customer's XP is off-chain, only the reward settles.
    const customer = await newCustomer(world);
    const { asset } = await registeredAsset(world, 'erc721', { owner: stranger.address, deployerKey: stranger.privateKey, key: 'foreign_nft' });
    const reward = await createReward(world, { xp_cost: 100, stock: 2, onchain_asset_id: asset.id ?? '' });
    const seed = await earn(world, customer.id, 300);
    expect(seed.status).toBe('completed');
    const before = await getCustomer(world, customer.id);
    expect(before.xp_balance).toBe('300');

    const redemption = await redeem(world, customer.id, reward.id);
    expect(redemption.status).toBe('initialized');
    expect((await getCustomer(world, customer.id)).xp_balance).toBe('200');
    expect((await getReward(world, reward.id)).stock).toBe(1);

    await settleAll(runEnv, world.tenant.id);

    expect((await getRedemption(world, redemption.id)).status).toBe('failed');
    const [entry] = await db(world.tenant.id).select().from(internalTransactions).where(eq(internalTransactions.redemptionId, redemption.id));
    expect(entry?.type).toBe('xp_redeem');
    const { transaction, links } = await linkedTransactions(world, entry?.id ?? '');
    expect(transaction.status).toBe('failed');
    expect(links).toHaveLength(1);
    expectReceipt(links[0], relayer.address, 0);
    const after = await getCustomer(world, customer.id);
    expect(after.xp_balance).toBe(before.xp_balance);
    expect(after.lifetime_xp).toBe(before.lifetime_xp);
    expect((await getReward(world, reward.id)).stock).toBe(2);
    const [delivery] = await operationsOf(world.tenant.id, entry?.id ?? '');
    expect(delivery?.status).toBe('failed');
  });

  it('a reverted delivery cancels the XP burn waiting for it and refunds the reserved XP', async () => {
    const world = await newWorld('revert');
    const { address: xpAddress } = await registeredAsset(world, 'erc20', { owner: relayer.address, deployerKey: relayer.privateKey, key: 'xp' });
    const customer = await newCustomer(world);
    await earn(world, customer.id, 300);
    await settleAll(runEnv, world.tenant.id);
    expect(await balanceOf(31337, 'erc20', xpAddress, customer.wallet)).toBe(300n);
    const { asset } = await registeredAsset(world, 'erc721', { owner: stranger.address, deployerKey: stranger.privateKey, key: 'foreign_nft' });
    const reward = await createReward(world, { xp_cost: 100, stock: 2, onchain_asset_id: asset.id ?? '' });

    const redemption = await redeem(world, customer.id, reward.id);
    expect((await getCustomer(world, customer.id)).xp_balance).toBe('200');
    await settleAll(runEnv, world.tenant.id);

    expect((await getRedemption(world, redemption.id)).status).toBe('failed');
    const [entry] = await db(world.tenant.id).select().from(internalTransactions).where(eq(internalTransactions.redemptionId, redemption.id));
    const ops = await operationsOf(world.tenant.id, entry?.id ?? '');
    expect(ops.find((op) => op.kind === 'burn')?.status).toBe('canceled');
    expect(await attemptsOf(world.tenant.id, ops.find((op) => op.kind === 'burn')?.id ?? '')).toHaveLength(0);
    expect((await getCustomer(world, customer.id)).xp_balance).toBe('300');
    expect((await getReward(world, reward.id)).stock).toBe(2);
    // Nothing was burned.
    expect(await balanceOf(31337, 'erc20', xpAddress, customer.wallet)).toBe(300n);
  });

  it('an XP token registered with a foreign owner: the earn fails, the balance is unchanged', async () => {
    const world = await newWorld('revert');
    const { address } = await registeredAsset(world, 'erc20', { owner: stranger.address, deployerKey: stranger.privateKey, key: 'xp' });
    const customer = await newCustomer(world);
    const earned = await earn(world, customer.id, 150);
    expect(earned.status).toBe('initialized');

    await settleAll(runEnv, world.tenant.id);

    const { transaction, links } = await linkedTransactions(world, earned.id);
    expect(transaction.status).toBe('failed');
    expect(links).toHaveLength(1);
    expectReceipt(links[0], relayer.address, 0);
    const after = await getCustomer(world, customer.id);
    expect(after.xp_balance).toBe('0');
    expect(after.lifetime_xp).toBe('0');
    expect(await balanceOf(31337, 'erc20', address, customer.wallet)).toBe(0n);
  });
});
