import { beforeAll, describe, expect, it } from 'vitest';
import type { Address, Hex } from 'viem';
import type { Bindings } from '../../src/env';
import { balanceOf, fundedRelayer } from '../support/chain';
import { createRuleViaApi, recordEvent } from '../support/rules';
import { deliver, relayerEnv, settleAll } from '../support/settlement';
import { createAsset, deployedAsset, earn, getAsset, expectReceipt, getCustomer, linkedTransactions, newCustomer, newWorld, operationsOf } from './fixtures';

let relayer: { privateKey: Hex; address: Address };
let runEnv: Bindings;

beforeAll(async () => {
  relayer = await fundedRelayer();
  runEnv = relayerEnv(relayer.privateKey);
});

describe('earn settles onto the XP token', () => {
  for (const decimals of [0, 18]) {
    it(`mints amount x 10^${decimals}, and balance and lifetime XP move only on completion`, async () => {
      const world = await newWorld();
      const xp = await deployedAsset(world, runEnv, { type: 'erc20', key: 'xp', decimals, name: 'XP', symbol: 'XP' });
      const customer = await newCustomer(world);

      const earned = await earn(world, customer.id, 150);
      expect(earned.status).toBe('initialized');
      expect(earned.onchain_asset_id).toBe(xp.id);
      // A credit counts only once it is onchain.
      const before = await getCustomer(world, customer.id);
      expect(before.xp_balance).toBe('0');
      expect(before.lifetime_xp).toBe('0');
      const [mint] = await operationsOf(world.tenant.id, earned.id);
      expect(mint?.kind).toBe('mint');
      expect(mint?.amount).toBe(`150${'0'.repeat(decimals)}`);

      await settleAll(runEnv, world.tenant.id);

      expect(await balanceOf(31337, 'erc20', xp.asset_address, customer.wallet)).toBe(150n * 10n ** BigInt(decimals));
      const after = await getCustomer(world, customer.id);
      expect(after.xp_balance).toBe('150');
      expect(after.lifetime_xp).toBe('150');
      const { transaction, links } = await linkedTransactions(world, earned.id);
      expect(transaction.status).toBe('completed');
      expect(links).toHaveLength(1);
      expectReceipt(links[0], relayer.address, 1);
      expect(links[0]?.tx_to?.toLowerCase()).toBe(xp.asset_address.toLowerCase());
      expect(links[0]?.chain_id).toBe(31337);
    });
  }

  it('two earns of one customer settle to the sum, each with its own nonce', async () => {
    const world = await newWorld();
    const xp = await deployedAsset(world, runEnv, { type: 'erc20', key: 'xp', decimals: 0, name: 'XP', symbol: 'XP' });
    const customer = await newCustomer(world);
    const first = await earn(world, customer.id, 40);
    const second = await earn(world, customer.id, 60);
    await settleAll(runEnv, world.tenant.id);
    expect(await balanceOf(31337, 'erc20', xp.asset_address, customer.wallet)).toBe(100n);
    const nonces = await Promise.all([first, second].map(async (tx) => (await linkedTransactions(world, tx.id)).links[0]?.tx_nonce));
    expect(new Set(nonces).size).toBe(2);
    expect((await getCustomer(world, customer.id)).xp_balance).toBe('100');
  });

  it('an earn while the XP token is still deploying waits for the deploy, then settles', async () => {
    const world = await newWorld();
    const created = await createAsset(world, { type: 'erc20', key: 'xp', decimals: 0, name: 'XP', symbol: 'XP' });
    expect(created.status).toBe('deploying');
    const customer = await newCustomer(world);
    const earned = await earn(world, customer.id, 5);
    expect(earned.status).toBe('initialized');
    const [mint] = await operationsOf(world.tenant.id, earned.id);
    const early = await deliver(runEnv, [mint?.id ?? '']);
    expect(early.retryMessages).toHaveLength(1);
    expect((await operationsOf(world.tenant.id, earned.id))[0]?.nonce).toBeNull();

    await settleAll(runEnv, world.tenant.id);
    const asset = await getAsset(world, created.id ?? '');
    expect(await balanceOf(31337, 'erc20', asset.asset_address as Address, customer.wallet)).toBe(5n);
    expect((await linkedTransactions(world, earned.id)).transaction.status).toBe('completed');
  });
  it("an event's effects are minted like any earn: one mint per effect, and the XP counts once minted", async () => {
    const world = await newWorld();
    const xp = await deployedAsset(world, runEnv, { type: 'erc20', key: 'xp', decimals: 0, name: 'XP', symbol: 'XP' });
    const customer = await newCustomer(world);
    await createRuleViaApi(world.tenant.owner, world.tenant.id, { name: 'Ten', effect: { kind: 'fixed', amount: '10' } });
    await createRuleViaApi(world.tenant.owner, world.tenant.id, { name: 'Per dollar', effect: { kind: 'per_unit', property: 'total', xp_per_unit: '1' } });
    const event = await recordEvent(world.key, { user_id: customer.id, properties: { total: 32.5 } });
    expect(event.xp_awarded).toBe('42');
    const ids = event.effects.map((effect) => effect.internal_transaction_id ?? '');
    const mints = (await Promise.all(ids.map((id) => operationsOf(world.tenant.id, id)))).flat();
    expect(mints.map((mint) => [mint.kind, mint.amount]).sort()).toEqual([['mint', '10'], ['mint', '32']]);
    expect((await getCustomer(world, customer.id)).xp_balance).toBe('0');

    await settleAll(runEnv, world.tenant.id);

    expect(await balanceOf(31337, 'erc20', xp.asset_address, customer.wallet)).toBe(42n);
    const after = await getCustomer(world, customer.id);
    expect([after.xp_balance, after.lifetime_xp]).toEqual(['42', '42']);
    for (const id of ids) expect((await linkedTransactions(world, id)).transaction.status).toBe('completed');
  });
});
