/**
 * The Transfer indexer against a real chain: after 100 token moves (mints, burns, customer-signed
 * transfers) every platform wallet's indexed holding equals `balanceOf` onchain.
 */
import { env } from 'cloudflare:test';
import { getAddress, type Address, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { referenceContracts } from '../../src/chain/artifacts.generated';
import { indexOnchainAssets } from '../../src/jobs/asset-indexer';
import { fundedRelayer, publicClientFor } from '../support/chain';
import { assetRow, custodialSigner, deploy, expectIndexedAsChain, holdingsOfAsset, registerAsset, tenantWithHolders, tokenOwner } from './fixtures';

let owner: Awaited<ReturnType<typeof fundedRelayer>>;

beforeAll(async () => {
  owner = await fundedRelayer();
});

describe('Transfer indexer: 100 transfers', () => {
  it('matches balanceOf for every wallet, counts txns and owners per tenant, and is idempotent', async () => {
    const ours = await tenantWithHolders(4);
    const theirs = await tenantWithHolders(1);
    const outsider = privateKeyToAccount(generatePrivateKey()).address;
    const wallets = ours.holders.map(({ wallet }) => wallet.address as Address);
    const theirWallet = theirs.holders[0]!.wallet.address as Address;
    const everyone = [...wallets, theirWallet, outsider];

    const erc20 = await deploy('erc20', owner.privateKey, owner.address);
    const erc721 = await deploy('erc721', owner.privateKey, owner.address);
    const erc1155 = await deploy('erc1155', owner.privateKey, owner.address);
    const theirErc20 = await deploy('erc20', owner.privateKey, owner.address); // a contract belongs to one tenant
    const points = await registerAsset(ours.tenant.id, 'erc20', erc20.address);
    const badges = await registerAsset(ours.tenant.id, 'erc721', erc721.address, { status: 'inactive' }); // inactive: still mirrored
    const multi = await registerAsset(ours.tenant.id, 'erc1155', erc1155.address.toLowerCase()); // any address case
    const theirPoints = await registerAsset(theirs.tenant.id, 'erc20', theirErc20.address);

    const tokens = tokenOwner(owner.privateKey);
    // ERC-20: 30 mints (amounts past 2^53) and 10 burns, the last one emptying wallet 3 entirely.
    const minted = new Map<Address, bigint>();
    for (let i = 0; i < 30; i += 1) {
      const to = everyone[i % everyone.length]!;
      const amount = 10n ** 18n * BigInt(i + 1);
      minted.set(to, (minted.get(to) ?? 0n) + amount);
      await tokens.mint20(erc20.address, to, amount);
    }
    for (let i = 0; i < 9; i += 1) await tokens.burn20(erc20.address, everyone[i % 3]!, 10n ** 18n);
    await tokens.burn20(erc20.address, wallets[3]!, minted.get(wallets[3]!)!);
    // ERC-721: 25 mints (ids 1..25), then wallet 0 gives all five of its tokens away.
    for (let i = 0; i < 25; i += 1) await tokens.mint721(erc721.address, everyone[i % everyone.length]!);
    // ERC-1155: 27 mints of ids 1..4.
    for (let i = 0; i < 27; i += 1) await tokens.mint1155(erc1155.address, everyone[i % everyone.length]!, BigInt((i % 4) + 1), BigInt(i + 1));
    // The other tenant's token, minted to its wallet, to ours and to an outsider: only its own wallet is in its rows.
    for (const to of [theirWallet, wallets[0]!, theirWallet, outsider, theirWallet, wallets[1]!]) await tokens.mint20(theirErc20.address, to, 7n);
    await tokens.settled();

    const client = publicClientFor(31337);
    let last: Hash | undefined;
    const first = await custodialSigner(ours.holders[0]!.wallet);
    const { abi: abi721 } = referenceContracts.erc721;
    for (const [tokenId, to] of [[1n, wallets[1]!], [7n, wallets[1]!], [13n, outsider], [19n, outsider], [25n, theirWallet]] as const) {
      last = await first.writeContract({ address: erc721.address, abi: abi721, functionName: 'transferFrom', args: [wallets[0]!, to, tokenId] });
    }
    const second = await custodialSigner(ours.holders[1]!.wallet);
    const { abi: abi1155 } = referenceContracts.erc1155;
    for (const [id, amount] of [[2n, 1n], [2n, 2n], [4n, 3n]] as const) {
      last = await second.writeContract({ address: erc1155.address, abi: abi1155, functionName: 'safeTransferFrom', args: [wallets[1]!, wallets[2]!, id, amount, '0x'] });
    }
    const lastBlock = Number((await client.waitForTransactionReceipt({ hash: last! })).blockNumber);

    const summary = await indexOnchainAssets(env);
    expect(summary.errors).toBe(0);
    expect(summary.logs).toBeGreaterThanOrEqual(40 + 30 + 30 + 6);

    const nftIds = Array.from({ length: 25 }, (_, i) => String(i + 1));
    const multiIds = ['1', '2', '3', '4'];
    const pointsAfter = await expectIndexedAsChain(points, ours.holders, [''], 40);
    expect(await holdingsOfAsset(points.tenantId, points.id)).toHaveLength(3); // wallet 3 burned to zero: no row
    await expectIndexedAsChain(theirPoints, theirs.holders, [''], 6);
    await expectIndexedAsChain(badges, ours.holders, nftIds, 30);
    expect((await holdingsOfAsset(badges.tenantId, badges.id)).filter((row) => row.userAddress === getAddress(wallets[0]!))).toEqual([]);
    await expectIndexedAsChain(multi, ours.holders, multiIds, 30);
    expect(pointsAfter.lastIndexedBlock).toBeGreaterThanOrEqual(lastBlock);
    expect(pointsAfter.indexedGenesisHash).toBe((await client.getBlock({ blockNumber: 0n })).hash);

    // Supply (minted minus burned, whoever holds it): the ERC-20's own totalSupply(), 25 NFTs, and 1 + 2 + ... + 27 multi-tokens.
    const supplyOf = (address: Address) => client.readContract({ address, abi: referenceContracts.erc20.abi, functionName: 'totalSupply' });
    expect((await assetRow(points.tenantId, points.id)).indexedSupply).toBe(String(await supplyOf(erc20.address)));
    expect((await assetRow(theirPoints.tenantId, theirPoints.id)).indexedSupply).toBe('42');
    expect((await assetRow(badges.tenantId, badges.id)).indexedSupply).toBe('25');
    expect((await assetRow(multi.tenantId, multi.id)).indexedSupply).toBe(String((27 * 28) / 2));

    // Another tenant's wallet, and a wallet outside the platform, never appear in a tenant's rows.
    const ourRows = [points, badges, multi].map((asset) => holdingsOfAsset(asset.tenantId, asset.id));
    for (const row of (await Promise.all(ourRows)).flat()) {
      expect([theirWallet, outsider].map((address) => address.toLowerCase())).not.toContain(row.userAddress.toLowerCase());
    }

    // A second run finds nothing new: rows and counters stay exactly as they were.
    const snapshot = await Promise.all([points, badges, multi, theirPoints].map(async (asset) => ({ rows: await holdingsOfAsset(asset.tenantId, asset.id), asset: await assetRow(asset.tenantId, asset.id) })));
    await indexOnchainAssets(env);
    const again = await Promise.all([points, badges, multi, theirPoints].map(async (asset) => ({ rows: await holdingsOfAsset(asset.tenantId, asset.id), asset: await assetRow(asset.tenantId, asset.id) })));
    expect(again.map(({ rows }) => rows)).toEqual(snapshot.map(({ rows }) => rows));
    expect(again.map(({ asset }) => ({ ...asset, lastIndexedBlock: 0 }))).toEqual(snapshot.map(({ asset }) => ({ ...asset, lastIndexedBlock: 0 })));

    // New moves are picked up incrementally from the cursor.
    await tokens.mint20(erc20.address, wallets[3]!, 5n);
    await tokens.mint20(theirErc20.address, theirWallet, 1n);
    await tokens.settled();
    await indexOnchainAssets(env);
    await expectIndexedAsChain(points, ours.holders, [''], 41);
    await expectIndexedAsChain(theirPoints, theirs.holders, [''], 7);
    expect((await assetRow(points.tenantId, points.id)).indexedSupply).toBe(String(await supplyOf(erc20.address)));
    expect((await assetRow(theirPoints.tenantId, theirPoints.id)).indexedSupply).toBe('43');
  });
});
