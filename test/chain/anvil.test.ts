/**
 * The onchain test harness itself: both anvil nodes, the reference contracts and the
 * settlement queue binding as the other onchain tests rely on them.
 */
import { env } from 'cloudflare:test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { referenceContracts } from '../../src/chain/artifacts.generated';
import {
  balanceOf,
  deployReference,
  fundedRelayer,
  publicClientFor,
  walletClientFor,
  type TestChainId,
} from '../support/chain';

let relayer: Awaited<ReturnType<typeof fundedRelayer>>;
const customer = privateKeyToAccount(generatePrivateKey()).address;

beforeAll(async () => {
  relayer = await fundedRelayer();
});

describe('anvil nodes', () => {
  it.each([31337, 31338] as TestChainId[])('chain %i answers with its chain id', async (chainId) => {
    expect(await publicClientFor(chainId).getChainId()).toBe(chainId);
  });
});

describe('reference contracts', () => {
  it('ERC-20: the owner mints and burns; holders cannot transfer', async () => {
    const { abi } = referenceContracts.erc20;
    const address = await deployReference('erc20', { owner: relayer.address, deployerKey: relayer.privateKey });
    const wallet = walletClientFor(31337, relayer.privateKey);
    const client = publicClientFor(31337);
    expect(await client.readContract({ address, abi, functionName: 'decimals' })).toBe(0);

    const holder = await fundedRelayer(); // a holder with gas, so only the contract can refuse
    await client.waitForTransactionReceipt({
      hash: await wallet.writeContract({ address, abi, functionName: 'mint', args: [holder.address, 100n] }),
    });
    await client.waitForTransactionReceipt({
      hash: await wallet.writeContract({ address, abi, functionName: 'burn', args: [holder.address, 30n] }),
    });
    expect(await balanceOf(31337, 'erc20', address, holder.address)).toBe(70n);

    const holderWallet = walletClientFor(31337, holder.privateKey);
    await expect(
      holderWallet.writeContract({ address, abi, functionName: 'transfer', args: [customer, 1n] }),
    ).rejects.toThrow(/NonTransferable/);
    expect(await balanceOf(31337, 'erc20', address, holder.address)).toBe(70n);
  });

  it('ERC-721: the owner mints ids 1, 2, ...', async () => {
    const { abi } = referenceContracts.erc721;
    const address = await deployReference('erc721', { owner: relayer.address, deployerKey: relayer.privateKey });
    const wallet = walletClientFor(31337, relayer.privateKey);
    const client = publicClientFor(31337);
    for (let i = 0; i < 2; i++) {
      const hash = await wallet.writeContract({ address, abi, functionName: 'mint', args: [customer] });
      expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success');
    }
    expect(await balanceOf(31337, 'erc721', address, customer)).toBe(2n);
    expect(await balanceOf(31337, 'erc721', address, customer, 2n)).toBe(1n);
  });

  it('ERC-1155: the owner mints any id', async () => {
    const { abi } = referenceContracts.erc1155;
    const address = await deployReference('erc1155', { owner: relayer.address, deployerKey: relayer.privateKey });
    const wallet = walletClientFor(31337, relayer.privateKey);
    const hash = await wallet.writeContract({ address, abi, functionName: 'mint', args: [customer, 7n, 3n] });
    await publicClientFor(31337).waitForTransactionReceipt({ hash });
    expect(await balanceOf(31337, 'erc1155', address, customer, 7n)).toBe(3n);
    expect(await balanceOf(31337, 'erc1155', address, customer, 8n)).toBe(0n);
  });

  it('a mint by anyone but the owner reverts', async () => {
    const someoneElse = privateKeyToAccount(generatePrivateKey()).address;
    const address = await deployReference('erc20', { owner: someoneElse, deployerKey: relayer.privateKey });
    const wallet = walletClientFor(31337, relayer.privateKey);
    await expect(
      wallet.writeContract({ address, abi: referenceContracts.erc20.abi, functionName: 'mint', args: [customer, 1n] }),
    ).rejects.toThrow(/OwnableUnauthorizedAccount/);
  });
});

describe('settlement queue binding', () => {
  it('accepts messages and delivers none to the consumer by itself', async () => {
    // Observe deliveries through the handler the pool looks up on the main module at each event.
    const handler = worker as ExportedHandler<Cloudflare.Env>;
    const original = handler.queue;
    const delivered: unknown[] = [];
    handler.queue = async (batch) => {
      delivered.push(...batch.messages.map((m) => m.body));
    };
    try {
      await env.SETTLEMENT_QUEUE.send({ operationId: 'op_harness_check', shard: 'SHARD_0' });
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // > max_batch_timeout (1 s)
      expect(delivered).toEqual([]);
    } finally {
      handler.queue = original;
    }
  });
});
