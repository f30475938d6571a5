import { beforeAll, describe, expect, it } from 'vitest';
import type { Address, Hex } from 'viem';
import type { Bindings } from '../../src/env';
import { balanceOf, fundedRelayer, publicClientFor } from '../support/chain';
import { expectError } from '../support/http';
import { deliver, relayerEnv, runCron, settleAll } from '../support/settlement';
import {
  attemptsOf,
  createReward,
  deployedAsset,
  earn,
  expectReceipt,
  getCustomer,
  getRedemption,
  linkedTransactions,
  newCustomer,
  newWorld,
  operationsOf,
  redeem,
  registeredAsset,
  type Customer,
  type World,
} from './fixtures';
import { db, portalCall } from '../support/world';
import { internalTransactions } from '../../src/db/schema';
import { eq } from 'drizzle-orm';

function cancel(world: World, redemptionId: string) {
  return portalCall(world.tenant.owner, 'POST', `/api/v1/tenant/${world.tenant.id}/redemptions/${redemptionId}/cancel`);
}

let relayer: { privateKey: Hex; address: Address };
let runEnv: Bindings;

beforeAll(async () => {
  relayer = await fundedRelayer();
  runEnv = relayerEnv(relayer.privateKey);
});

/** A tenant with a settled XP token and a customer holding 500 settled XP. */
async function xpWorld(): Promise<{ world: World; xp: Awaited<ReturnType<typeof deployedAsset>>; customer: Customer }> {
  const world = await newWorld('redeem');
  const xp = await deployedAsset(world, runEnv, { type: 'erc20', key: 'xp', decimals: 0, name: 'XP', symbol: 'XP' });
  const customer = await newCustomer(world);
  await earn(world, customer.id, 500);
  await settleAll(runEnv, world.tenant.id);
  expect(await balanceOf(31337, 'erc20', xp.asset_address, customer.wallet)).toBe(500n);
  return { world, xp, customer };
}

async function redemptionTransactionId(tenantId: string, redemptionId: string): Promise<string> {
  const [row] = await db(tenantId).select({ id: internalTransactions.id }).from(internalTransactions).where(eq(internalTransactions.redemptionId, redemptionId));
  if (!row) throw new Error(`no transaction for redemption ${redemptionId}`);
  return row.id;
}

describe('redemption with the XP token', () => {
  it('reserves the XP at once and burns it onchain (off-chain reward)', async () => {
    const { world, xp, customer } = await xpWorld();
    const reward = await createReward(world, { xp_cost: 200, stock: 5 });
    const redemption = await redeem(world, customer.id, reward.id);
    expect(redemption.status).toBe('initialized');
    // A debit is reserved at once, while it is still initialized.
    expect((await getCustomer(world, customer.id)).xp_balance).toBe('300');
    const txId = await redemptionTransactionId(world.tenant.id, redemption.id);
    const [burn] = await operationsOf(world.tenant.id, txId);
    expect(burn?.kind).toBe('burn');
    expect(burn?.dependsOnOperationId).toBeNull();

    await settleAll(runEnv, world.tenant.id);
    expect((await getRedemption(world, redemption.id)).status).toBe('completed');
    expect(await balanceOf(31337, 'erc20', xp.asset_address, customer.wallet)).toBe(300n);
    const after = await getCustomer(world, customer.id);
    expect(after.xp_balance).toBe('300');
    expect(after.lifetime_xp).toBe('500');
    const { transaction, links } = await linkedTransactions(world, txId);
    expect(transaction.status).toBe('completed');
    expect(links).toHaveLength(1);
    expectReceipt(links[0], relayer.address, 1);
  });

  type Case = { type: 'erc20' | 'erc721' | 'erc1155'; metadata?: Record<string, unknown>; tokenId?: bigint; expected: bigint };
  const cases: Case[] = [
    { type: 'erc20', metadata: { onchain_amount: '25' }, expected: 25n },
    { type: 'erc721', expected: 1n },
    { type: 'erc1155', metadata: { token_id: '7', onchain_amount: '3' }, tokenId: 7n, expected: 3n },
  ];
  for (const testCase of cases) {
    it(`delivers an ${testCase.type} reward before burning the XP`, async () => {
      const { world, xp, customer } = await xpWorld();
      const rewardAsset = await deployedAsset(world, runEnv, { type: testCase.type, key: `reward_${testCase.type}`, name: 'Reward', symbol: 'RWD' });
      const reward = await createReward(world, { xp_cost: 100, stock: 3, onchain_asset_id: rewardAsset.id, metadata: testCase.metadata });
      const redemption = await redeem(world, customer.id, reward.id);
      expect(redemption.status).toBe('initialized');
      expect(redemption.reward.onchain_asset?.id).toBe(rewardAsset.id);
      expect((await getCustomer(world, customer.id)).xp_balance).toBe('400');
      // Settling cannot be canceled: the chain may already carry it.
      expectError(await cancel(world, redemption.id), 409, 'INVALID_STATUS_TRANSITION');

      const txId = await redemptionTransactionId(world.tenant.id, redemption.id);
      const ops = await operationsOf(world.tenant.id, txId);
      const delivery = ops.find((op) => op.onchainAssetId === rewardAsset.id);
      const burn = ops.find((op) => op.onchainAssetId === xp.id);
      expect(delivery?.status).toBe('queued');
      expect(burn?.kind).toBe('burn');
      expect(burn?.status).toBe('waiting');
      expect(burn?.dependsOnOperationId).toBe(delivery?.id);

      // The delivery goes first; the burn waits until its receipt succeeded.
      await deliver(runEnv, [delivery?.id ?? '']);
      expect((await getRedemption(world, redemption.id)).status).toBe('pending');
      expectError(await cancel(world, redemption.id), 409, 'INVALID_STATUS_TRANSITION');
      expect((await operationsOf(world.tenant.id, txId)).find((op) => op.id === burn?.id)?.status).toBe('waiting');
      await runCron(runEnv);
      expect((await operationsOf(world.tenant.id, txId)).find((op) => op.id === delivery?.id)?.status).toBe('succeeded');
      const released = (await operationsOf(world.tenant.id, txId)).find((op) => op.id === burn?.id);
      expect(released?.status).toBe('queued');
      expect(released?.nonce).toBeNull();
      expect((await getRedemption(world, redemption.id)).status).toBe('pending');

      await settleAll(runEnv, world.tenant.id);
      expect((await getRedemption(world, redemption.id)).status).toBe('completed');
      const holder = await balanceOf(31337, testCase.type, rewardAsset.asset_address, customer.wallet, testCase.tokenId);
      expect(holder).toBe(testCase.expected);
      if (testCase.type === 'erc721') {
        // The first token of a fresh collection; its owner is the customer's wallet.
        expect(await balanceOf(31337, 'erc721', rewardAsset.asset_address, customer.wallet, await firstTokenId(world.tenant.id, delivery?.id ?? ''))).toBe(1n);
      }
      expect(await balanceOf(31337, 'erc20', xp.asset_address, customer.wallet)).toBe(400n);
      const [deliveryTx] = await attemptsOf(world.tenant.id, delivery?.id ?? '');
      const [burnTx] = await attemptsOf(world.tenant.id, burn?.id ?? '');
      expect(BigInt(deliveryTx?.receiptBlockNumber ?? '0')).toBeLessThan(BigInt(burnTx?.receiptBlockNumber ?? '0'));
      const { transaction, links } = await linkedTransactions(world, txId);
      expect(transaction.status).toBe('completed');
      expect(links).toHaveLength(2);
      for (const link of links) expectReceipt(link, relayer.address, 1);
      expect((await getCustomer(world, customer.id)).xp_balance).toBe('400');
    });
  }

  it('delivers a reward from a registered contract owned by the relayer', async () => {
    const { world, customer } = await xpWorld();
    const { asset, address } = await registeredAsset(world, 'erc1155', { owner: relayer.address, deployerKey: relayer.privateKey, key: 'badge' });
    const reward = await createReward(world, { xp_cost: 50, onchain_asset_id: asset.id ?? '' });
    const redemption = await redeem(world, customer.id, reward.id);
    await settleAll(runEnv, world.tenant.id);
    expect((await getRedemption(world, redemption.id)).status).toBe('completed');
    // Defaults: token id 0, amount 1.
    expect(await balanceOf(31337, 'erc1155', address, customer.wallet, 0n)).toBe(1n);
  });
});

/** The ERC-721 token id a delivery minted, read from the Transfer log of its receipt. */
async function firstTokenId(tenantId: string, operationId: string): Promise<bigint> {
  const [attempt] = await attemptsOf(tenantId, operationId);
  const receipt = await publicClientFor(31337).getTransactionReceipt({ hash: attempt?.txHash as Hex });
  const transfer = receipt.logs.find((log) => log.topics.length === 4);
  return BigInt(transfer?.topics[3] ?? '0x0');
}
