import { beforeAll, describe, expect, it } from 'vitest';
import type { Address, Hex } from 'viem';
import type { Bindings } from '../../src/env';
import { balanceOf, fundedRelayer } from '../support/chain';
import { deliver, relayerEnv, runCron, settleAll } from '../support/settlement';
import { attemptsOf, deployedAsset, earn, getCustomer, linkedTransactions, newCustomer, newWorld, operationsOf, type World } from './fixtures';

let relayer: { privateKey: Hex; address: Address };
let runEnv: Bindings;

beforeAll(async () => {
  relayer = await fundedRelayer();
  runEnv = relayerEnv(relayer.privateKey);
});

async function earnWorld(): Promise<{ world: World; xpAddress: Address; customer: Awaited<ReturnType<typeof newCustomer>>; txId: string; opId: string }> {
  const world = await newWorld('once');
  const xp = await deployedAsset(world, runEnv, { type: 'erc20', key: 'xp', decimals: 0, name: 'XP', symbol: 'XP' });
  const customer = await newCustomer(world);
  const earned = await earn(world, customer.id, 70);
  const [op] = await operationsOf(world.tenant.id, earned.id);
  if (!op) throw new Error('no mint operation');
  return { world, xpAddress: xp.asset_address, customer, txId: earned.id, opId: op.id };
}

async function expectMintedOnce(setup: Awaited<ReturnType<typeof earnWorld>>) {
  await settleAll(runEnv, setup.world.tenant.id);
  expect(await balanceOf(31337, 'erc20', setup.xpAddress, setup.customer.wallet)).toBe(70n);
  const attempts = await attemptsOf(setup.world.tenant.id, setup.opId);
  expect(attempts).toHaveLength(1);
  const [op] = await operationsOf(setup.world.tenant.id, setup.txId);
  expect(op?.status).toBe('succeeded');
  expect(op?.nonce).toBe(attempts[0]?.txNonce);
  const { transaction, links } = await linkedTransactions(setup.world, setup.txId);
  expect(transaction.status).toBe('completed');
  expect(links).toHaveLength(1);
  expect((await getCustomer(setup.world, setup.customer.id)).xp_balance).toBe('70');
}

describe('a settlement message delivered more than once mints once', () => {
  it('three sequential deliveries', async () => {
    const setup = await earnWorld();
    for (let delivery = 0; delivery < 3; delivery += 1) {
      const result = await deliver(runEnv, [setup.opId]);
      expect(result.explicitAcks).toEqual([expect.any(String)]);
      expect(result.retryMessages).toEqual([]);
    }
    await expectMintedOnce(setup);
  });

  it('three concurrent deliveries', async () => {
    const setup = await earnWorld();
    const results = await Promise.all([0, 1, 2].map(() => deliver(runEnv, [setup.opId])));
    for (const result of results) expect(result.retryMessages).toEqual([]);
    await expectMintedOnce(setup);
  });

  it('the same id three times in one batch', async () => {
    const setup = await earnWorld();
    await deliver(runEnv, [setup.opId, setup.opId, setup.opId]);
    await expectMintedOnce(setup);
  });

  it('a redelivery after the receipt settled changes nothing', async () => {
    const setup = await earnWorld();
    await deliver(runEnv, [setup.opId]);
    await runCron(runEnv);
    await Promise.all([deliver(runEnv, [setup.opId]), deliver(runEnv, [setup.opId])]);
    await runCron(runEnv);
    await expectMintedOnce(setup);
  });
});
