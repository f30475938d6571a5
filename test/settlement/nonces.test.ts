import { inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Address, Hex } from 'viem';
import { blockchainTransactions, onchainOperations } from '../../src/db/schema';
import type { Bindings } from '../../src/env';
import { balanceOf, fundedRelayer, publicClientFor } from '../support/chain';
import { deliver, operationIds, relayerEnv, settleAll } from '../support/settlement';
import { db } from '../support/world';
import { deployedAsset, earn, newCustomer, newWorld } from './fixtures';

let relayer: { privateKey: Hex; address: Address };
let runEnv: Bindings;

beforeAll(async () => {
  relayer = await fundedRelayer();
  runEnv = relayerEnv(relayer.privateKey);
});

const SETTLEMENTS = 50;
const BATCHES = 5;

describe('concurrent settlements', () => {
  it(`${SETTLEMENTS} earns delivered in ${BATCHES} concurrent batches take distinct, consecutive nonces`, { timeout: 120_000 }, async () => {
    const world = await newWorld('nonces');
    const xp = await deployedAsset(world, runEnv, { type: 'erc20', key: 'xp', decimals: 0, name: 'XP', symbol: 'XP' });
    const customers = await Promise.all(Array.from({ length: 10 }, () => newCustomer(world)));
    const amounts = Array.from({ length: SETTLEMENTS }, (_, index) => index + 1);
    // Sequential requests: the point is concurrent settlement, not concurrent earning.
    const earned = [];
    for (const [index, amount] of amounts.entries()) earned.push(await earn(world, customers[index % customers.length]?.id ?? '', amount));
    const queued = await operationIds(['queued'], world.tenant.id);
    expect(queued).toHaveLength(SETTLEMENTS);
    const startNonce = await publicClientFor(31337).getTransactionCount({ address: relayer.address, blockTag: 'pending' });

    const size = SETTLEMENTS / BATCHES;
    const results = await Promise.all(Array.from({ length: BATCHES }, (_, batch) => deliver(runEnv, queued.slice(batch * size, (batch + 1) * size))));
    for (const result of results) expect(result.retryMessages).toEqual([]);
    await settleAll(runEnv, world.tenant.id);

    const ops = await db(world.tenant.id).select().from(onchainOperations).where(inArray(onchainOperations.id, queued));
    expect(ops.map((op) => op.status)).toEqual(Array(SETTLEMENTS).fill('succeeded'));
    const nonces = ops.map((op) => op.nonce ?? -1).sort((a, b) => a - b);
    expect(new Set(nonces).size).toBe(SETTLEMENTS);
    expect(nonces).toEqual(Array.from({ length: SETTLEMENTS }, (_, index) => startNonce + index));
    const attempts = await db(world.tenant.id).select().from(blockchainTransactions).where(inArray(blockchainTransactions.operationId, queued));
    expect(attempts).toHaveLength(SETTLEMENTS);
    expect(attempts.every((attempt) => attempt.txnStatus === 'succeeded' && attempt.receiptStatus === 1)).toBe(true);
    expect(await publicClientFor(31337).getTransactionCount({ address: relayer.address, blockTag: 'latest' })).toBe(startNonce + SETTLEMENTS);

    const expectedTotal = BigInt(amounts.reduce((sum, amount) => sum + amount, 0));
    const balances = await Promise.all(customers.map((customer) => balanceOf(31337, 'erc20', xp.asset_address, customer.wallet)));
    expect(balances.reduce((sum, balance) => sum + balance, 0n)).toBe(expectedTotal);
    for (const [index, customer] of customers.entries()) {
      const own = amounts.filter((_, position) => position % customers.length === index).reduce((sum, amount) => sum + amount, 0);
      expect(balances[index]).toBe(BigInt(own));
      expect(customer.wallet).toMatch(/^0x/);
    }
    expect(earned.every((tx) => tx.status === 'initialized')).toBe(true);
  });
});
