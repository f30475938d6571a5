import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Address, Hex } from 'viem';
import type { Bindings } from '../../src/env';
import { anvilRpc, balanceOf, fundedRelayer } from '../support/chain';
import { deliver, relayerEnv, runCron } from '../support/settlement';
import { attemptsOf, earn, expectReceipt, getCustomer, linkedTransactions, newCustomer, newWorld, operationsOf, registeredAsset } from './fixtures';

// Chain 31338 is this file's alone: it is the only one whose automine may be switched off.
const CHAIN = 31338;

let relayer: { privateKey: Hex; address: Address };
let runEnv: Bindings;

beforeAll(async () => {
  relayer = await fundedRelayer(CHAIN);
  runEnv = relayerEnv(relayer.privateKey);
});

afterEach(async () => {
  await anvilRpc(CHAIN, 'evm_setAutomine', [true]);
});

describe('a stuck transaction', () => {
  it('is replaced with the same nonce and fees +10%, and the replacement settles', async () => {
    const world = await newWorld('stuck');
    const { address: xpAddress } = await registeredAsset(world, 'erc20', { owner: relayer.address, deployerKey: relayer.privateKey, key: 'xp', chainId: CHAIN });
    const customer = await newCustomer(world);
    try {
      await anvilRpc(CHAIN, 'evm_setAutomine', [false]);
      const earned = await earn(world, customer.id, 90);
      expect(earned.status).toBe('initialized');
      const [op] = await operationsOf(world.tenant.id, earned.id);
      if (!op) throw new Error('no mint operation');
      expect(op.chainId).toBe(CHAIN);

      await deliver(runEnv, [op.id]);
      const [first] = await attemptsOf(world.tenant.id, op.id);
      expect(first?.txnStatus).toBe('submitted');
      expect((await linkedTransactions(world, earned.id)).transaction.status).toBe('pending');

      // Not stuck yet by the default threshold: only followed.
      await runCron(runEnv);
      expect(await attemptsOf(world.tenant.id, op.id)).toHaveLength(1);

      await runCron(relayerEnv(relayer.privateKey, { SETTLEMENT_STUCK_SECONDS: '0' }));
      const [stuck, replacement, ...more] = await attemptsOf(world.tenant.id, op.id);
      expect(more).toEqual([]);
      expect(stuck?.id).toBe(first?.id);
      expect(stuck?.txnStatus).toBe('replaced');
      expect(replacement?.attempt).toBe(2);
      expect(replacement?.txNonce).toBe(stuck?.txNonce);
      expect(replacement?.txHash).not.toBe(stuck?.txHash);
      expect(replacement?.txData).toBe(stuck?.txData);
      expect(['submitted', 'pending']).toContain(replacement?.txnStatus);
      const bumped = (next: string | null | undefined, previous: string | null | undefined) => BigInt(next ?? '0') * 100n >= BigInt(previous ?? '0') * 110n;
      expect(bumped(replacement?.txMaxFeePerGas, stuck?.txMaxFeePerGas)).toBe(true);
      expect(bumped(replacement?.txMaxPriorityFeePerGas, stuck?.txMaxPriorityFeePerGas)).toBe(true);
      expect((await getCustomer(world, customer.id)).xp_balance).toBe('0');

      await anvilRpc(CHAIN, 'evm_mine', []);
      await runCron(runEnv);

      const [afterStuck, afterReplacement] = await attemptsOf(world.tenant.id, op.id);
      expect(afterStuck?.txnStatus).toBe('replaced');
      expect(afterStuck?.receiptStatus).toBeNull();
      expect(afterReplacement?.txnStatus).toBe('succeeded');
      const [settled] = await operationsOf(world.tenant.id, earned.id);
      expect(settled?.status).toBe('succeeded');
      expect(await balanceOf(CHAIN, 'erc20', xpAddress, customer.wallet)).toBe(90n);
      const after = await getCustomer(world, customer.id);
      expect(after.xp_balance).toBe('90');
      expect(after.lifetime_xp).toBe('90');

      const { transaction, links } = await linkedTransactions(world, earned.id);
      expect(transaction.status).toBe('completed');
      expect(links).toHaveLength(2);
      const byHash = new Map(links.map((link) => [link.tx_hash, link]));
      expect(byHash.get(afterStuck?.txHash)?.txn_status).toBe('replaced');
      expectReceipt(byHash.get(afterReplacement?.txHash), relayer.address, 1);
      expect(byHash.get(afterReplacement?.txHash)?.chain_id).toBe(CHAIN);
    } finally {
      await anvilRpc(CHAIN, 'evm_setAutomine', [true]);
    }
  });

  it('dropped from the pool: the same signed bytes are broadcast again and settle', async () => {
    const world = await newWorld('dropped');
    const { address: xpAddress } = await registeredAsset(world, 'erc20', { owner: relayer.address, deployerKey: relayer.privateKey, key: 'xp', chainId: CHAIN });
    const customer = await newCustomer(world);
    try {
      await anvilRpc(CHAIN, 'evm_setAutomine', [false]);
      const earned = await earn(world, customer.id, 15);
      const [op] = await operationsOf(world.tenant.id, earned.id);
      if (!op) throw new Error('no mint operation');
      await deliver(runEnv, [op.id]);
      const [sent] = await attemptsOf(world.tenant.id, op.id);
      await anvilRpc(CHAIN, 'anvil_dropTransaction', [sent?.txHash]);

      await runCron(runEnv);
      const attempts = await attemptsOf(world.tenant.id, op.id);
      expect(attempts).toHaveLength(1);
      expect(attempts[0]?.txHash).toBe(sent?.txHash);
      await anvilRpc(CHAIN, 'evm_mine', []);
      await runCron(runEnv);

      expect((await attemptsOf(world.tenant.id, op.id))[0]?.txnStatus).toBe('succeeded');
      expect(await balanceOf(CHAIN, 'erc20', xpAddress, customer.wallet)).toBe(15n);
      expect((await linkedTransactions(world, earned.id)).transaction.status).toBe('completed');
    } finally {
      await anvilRpc(CHAIN, 'evm_setAutomine', [true]);
    }
  });
});
