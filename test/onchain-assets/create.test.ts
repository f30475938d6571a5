import { and, eq } from 'drizzle-orm';
import { getAddress, type Address } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Shard } from '../../src/data/shards';
import { createDatabase } from '../../src/db/client';
import { blockchainTransactions, onchainContracts, onchainOperations } from '../../src/db/schema';
import { successFlagSchema } from '../../src/lib/envelope';
import { onchainAssetSchema } from '../../src/schemas/internal-transaction';
import { deployReference, fundedRelayer, publicClientFor } from '../support/chain';
import { expectError, expectOk } from '../support/http';
import { portalRequest, race } from '../support/race';
import { deliver, relayerEnv, runCron } from '../support/settlement';
import { addMember, createTenant, db, directory, everyShard, otherTenants, portalCall, type TestTenant } from '../support/world';
import { assetsPath } from './helpers';

let relayer: Awaited<ReturnType<typeof fundedRelayer>>;
let erc20: Address;

beforeAll(async () => {
  relayer = await fundedRelayer();
  erc20 = await ownContract('erc20');
});

/**
 * A contract of this test's own: a contract belongs to the first tenant that registers it, so
 * tests that register one never share it. Deploys are sequential (one key is one nonce sequence).
 */
const ownContract = (type: 'erc20' | 'erc721' | 'erc1155', decimals?: number) =>
  deployReference(type, { owner: relayer.address, deployerKey: relayer.privateKey, decimals });

/** What another tenant hears about a contract that is not theirs: that it is taken, not by whom. */
const HELD_ELSEWHERE = 'This contract belongs to another tenant of the platform: a contract can be registered by one tenant only';

const create = (tenant: TestTenant, body: Record<string, unknown>) => portalCall(tenant.owner, 'POST', assetsPath(tenant.id), body);

describe('register an existing contract', () => {
  it('registers each token type as active, with the address checksummed and decimals stored (0 without decimals)', async () => {
    const tenant = await createTenant();
    const cases = [
      { type: 'erc20', address: await ownContract('erc20'), decimals: 0, key: 'points' },
      { type: 'erc721', address: await ownContract('erc721'), decimals: undefined, key: 'badge' },
      { type: 'erc1155', address: await ownContract('erc1155'), decimals: 0, key: 'tickets' },
    ] as const;
    for (const c of cases) {
      const body = { type: c.type, chain_id: 31337, key: c.key, name: `${c.type} asset`, symbol: 'TST', decimals: c.decimals, asset_address: c.address.toLowerCase(), metadata: { color: 'gold' } };
      const asset = expectOk(await create(tenant, body), 201, onchainAssetSchema);
      expect(asset).toEqual({
        id: expect.stringMatching(/^ast_/),
        asset_address: getAddress(c.address),
        chain_id: 31337,
        decimals: 0,
        deploy_tx_hash: null,
        deployed_at: null,
        key: c.key,
        name: `${c.type} asset`,
        symbol: 'TST',
        status: 'active',
        type: c.type,
        metadata: { color: 'gold' },
        total_owners: null,
        total_txns: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
    }
  });

  it('registers the XP token (key xp) when its decimals() agrees with the body', async () => {
    const tenant = await createTenant();
    const body = { type: 'erc20', chain_id: 31337, key: 'xp', name: 'XP', symbol: 'XP', decimals: 18, asset_address: await ownContract('erc20', 18) };
    const asset = expectOk(await create(tenant, body), 201, onchainAssetSchema);
    expect(asset).toMatchObject({ key: 'xp', decimals: 18, status: 'active' });
  });

  it('422 when decimals differ from the contract decimals()', async () => {
    const tenant = await createTenant();
    const body = { type: 'erc20', chain_id: 31337, name: 'XP', symbol: 'XP', decimals: 6, asset_address: await ownContract('erc20', 18) };
    const error = expectError(await create(tenant, body), 422, 'VALIDATION_FAILED', "The contract's decimals() is 18, not 6");
    expect(error.errors).toEqual([{ path: 'decimals', message: "The contract's decimals() is 18, not 6" }]);
  });

  it('422 at chain_id listing the configured chains for an unconfigured chain', async () => {
    const tenant = await createTenant();
    const body = { type: 'erc20', chain_id: 5, name: 'T', symbol: 'T', decimals: 0, asset_address: erc20 };
    const error = expectError(await create(tenant, body), 422, 'VALIDATION_FAILED', 'Chain 5 is not configured; configured chains: 31337, 31338');
    expect(error.errors.map((e) => e.path)).toEqual(['chain_id']);
  });

  it('422 at asset_address for a malformed address or a bad checksum', async () => {
    const tenant = await createTenant();
    // Mixed case is an EIP-55 checksum: flipping the case of one letter breaks it.
    const checksummed = getAddress(erc20);
    const letter = checksummed.slice(2).search(/[a-fA-F]/) + 2;
    const char = checksummed[letter]!;
    const badChecksum = `${checksummed.slice(0, letter)}${char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase()}${checksummed.slice(letter + 1)}`;
    for (const address of ['0x1234', 'not-an-address', `${erc20}00`, badChecksum]) {
      const body = { type: 'erc20', chain_id: 31337, name: 'T', symbol: 'T', decimals: 0, asset_address: address };
      const error = expectError(await create(tenant, body), 422, 'VALIDATION_FAILED');
      expect(error.errors.map((e) => e.path), address).toEqual(['asset_address']);
    }
  });

  it('422 at asset_address when there is no contract code there (an EOA)', async () => {
    const tenant = await createTenant();
    const body = { type: 'erc721', chain_id: 31337, name: 'T', symbol: 'T', asset_address: relayer.address };
    const error = expectError(await create(tenant, body), 422, 'VALIDATION_FAILED', `There is no contract code at ${getAddress(relayer.address)} on chain 31337`);
    expect(error.errors.map((e) => e.path)).toEqual(['asset_address']);
  });

  it('409 for a key already used in the tenant, and for the same contract registered twice (any letter case)', async () => {
    const [erc721, erc1155] = [await ownContract('erc721'), await ownContract('erc1155')];
    const tenant = await createTenant();
    const first = { type: 'erc721', chain_id: 31337, key: 'badge', name: 'Badge', symbol: 'BDG', asset_address: erc721 };
    expectOk(await create(tenant, first), 201, onchainAssetSchema);
    const sameKey = expectError(await create(tenant, { ...first, asset_address: erc1155, type: 'erc1155' }), 409, 'CONFLICT');
    expect(sameKey.errors).toEqual([{ path: 'key', message: 'An onchain asset with key "badge" already exists in this tenant' }]);
    const sameAddress = expectError(await create(tenant, { ...first, key: 'other', asset_address: erc721.toLowerCase() }), 409, 'CONFLICT');
    expect(sameAddress.errors).toEqual([{ path: 'asset_address', message: 'This contract is already registered on chain 31337 in this tenant' }]);

    // Keys are per tenant, not per database: another tenant, on another shard or on the same one, uses the same key for a contract of its own.
    for (const other of await otherTenants(tenant.id)) {
      expectOk(await create(other, { ...first, asset_address: await ownContract('erc721') }), 201, onchainAssetSchema);
    }
  });

  it('409 for a contract another tenant (on another shard or on the same one) registered, in any letter case, without naming that tenant; deleting it does not release it', async () => {
    const contract = await ownContract('erc20');
    const holder = await createTenant();
    const body = { type: 'erc20', chain_id: 31337, key: 'xp', name: 'XP', symbol: 'XP', decimals: 0, asset_address: contract };
    const held = expectOk(await create(holder, body), 201, onchainAssetSchema);

    const attackers = await otherTenants(holder.id, 'attacker');
    for (const attacker of attackers) {
      for (const address of [contract, contract.toLowerCase()]) {
        const refused = expectError(await create(attacker, { ...body, asset_address: address }), 409, 'CONFLICT', HELD_ELSEWHERE);
        expect(refused.errors).toEqual([{ path: 'asset_address', message: HELD_ELSEWHERE }]);
        expect(JSON.stringify(refused)).not.toContain(holder.id);
      }
    }
    expectOk(await portalCall(holder.owner, 'DELETE', assetsPath(holder.id, `/${held.id}`)), 200, successFlagSchema);
    for (const attacker of attackers) expectError(await create(attacker, body), 409, 'CONFLICT', HELD_ELSEWHERE);
    // The holder itself may register it again.
    expectOk(await create(holder, body), 201, onchainAssetSchema);
  });

  it('409 for a contract the platform deployed for another tenant (on another shard or on the same one), even before its receipt is followed', async () => {
    const holder = await createTenant();
    const deployed = expectOk(await create(holder, { type: 'erc721', chain_id: 31337, key: 'badge', name: 'Badge', symbol: 'BDG' }), 201, onchainAssetSchema);
    const worker = relayerEnv(relayer.privateKey);
    const [deploy] = await db(holder.id).select().from(onchainOperations).where(and(eq(onchainOperations.onchainAssetId, deployed.id!), eq(onchainOperations.kind, 'deploy')));
    await deliver(worker, [deploy!.id]); // signed, sent and mined; the receipts cron has not run
    const [attempt] = await db(holder.id).select().from(blockchainTransactions).where(eq(blockchainTransactions.operationId, deploy!.id));
    const receipt = await publicClientFor(31337).getTransactionReceipt({ hash: attempt!.txHash as `0x${string}` });
    const address = getAddress(receipt.contractAddress!);

    const attackers = await otherTenants(holder.id, 'attacker');
    const body = { type: 'erc721', chain_id: 31337, key: 'badge', name: 'Mine', symbol: 'MINE', asset_address: address };
    for (const attacker of attackers) expectError(await create(attacker, body), 409, 'CONFLICT', HELD_ELSEWHERE);
    await runCron(worker);
    for (const attacker of attackers) expectError(await create(attacker, body), 409, 'CONFLICT', HELD_ELSEWHERE);
    expect((await portalCall(holder.owner, 'GET', assetsPath(holder.id, `/${deployed.id}`))).body).toMatchObject({ data: { status: 'active', asset_address: address } });
  });

  it('two tenants registering one contract at once: exactly one gets it', async () => {
    const contract = await ownContract('erc721');
    const tenants = await Promise.all([1, 2, 3, 4].map(() => createTenant()));
    const body = { type: 'erc721', chain_id: 31337, key: 'badge', name: 'Badge', symbol: 'BDG', asset_address: contract };
    const { responses, held } = await race(
      tenants.map((tenant) => portalRequest(tenant.owner, 'POST', assetsPath(tenant.id), body)),
      // The claim in the directory, which every shard shares: all four reach it before any is made.
      /insert into "onchain_contracts"/i,
    );
    expect(held).toBe(tenants.length);
    expect(responses.map((res) => res.status).sort()).toEqual([201, 409, 409, 409]);
    const owners = await directory().select().from(onchainContracts).where(eq(onchainContracts.address, getAddress(contract)));
    expect(owners).toHaveLength(1);
    // The winner's shard keeps its copy of the claim; no shard has any other (the four tenants are spread over both).
    const claimsOn = (shard: Shard) => createDatabase(shard.d1).select().from(onchainContracts).where(eq(onchainContracts.address, getAddress(contract)));
    const shardClaims = (await Promise.all(everyShard().map(claimsOn))).flat();
    expect(shardClaims.map((claim) => claim.tenantId)).toEqual(owners.map((owner) => owner.tenantId));
  });
});

describe('body validation (422 at the field)', () => {
  const valid = { type: 'erc20', chain_id: 31337, name: 'T', symbol: 'T', decimals: 0 };
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['an unknown type', { ...valid, type: 'erc777' }, 'type'],
    ['erc20 without decimals', { ...valid, decimals: undefined }, 'decimals'],
    ['decimals above 36', { ...valid, decimals: 37 }, 'decimals'],
    ['negative decimals', { ...valid, decimals: -1 }, 'decimals'],
    ['fractional decimals', { ...valid, decimals: 1.5 }, 'decimals'],
    ['decimals on an erc721', { ...valid, type: 'erc721', decimals: 2 }, 'decimals'],
    ['decimals on an erc1155', { ...valid, type: 'erc1155', decimals: 18 }, 'decimals'],
    ['the xp key on an erc721', { ...valid, type: 'erc721', decimals: undefined, key: 'xp' }, 'type'],
    ['an upper-case key', { ...valid, key: 'Gold' }, 'key'],
    ['a key with a dash', { ...valid, key: 'gold-badge' }, 'key'],
    ['a 65-character key', { ...valid, key: 'k'.repeat(65) }, 'key'],
    ['a missing name', { ...valid, name: undefined }, 'name'],
    ['a blank symbol', { ...valid, symbol: '  ' }, 'symbol'],
    ['a string chain_id', { ...valid, chain_id: '31337' }, 'chain_id'],
    ['an unknown field', { ...valid, owner: '0x0' }, 'owner'],
  ];

  it.each(cases)('%s', async (_name, body, path) => {
    const tenant = await createTenant();
    const error = expectError(await create(tenant, body), 422, 'VALIDATION_FAILED');
    expect(error.errors.map((e) => e.path)).toEqual([path]);
  });
});

describe('deploy a reference contract', () => {
  it('201 deploying without asset_address, with a queued deploy operation written with it', async () => {
    const tenant = await createTenant();
    const body = { type: 'erc20', chain_id: 31337, key: 'xp', name: 'XP', symbol: 'XP', decimals: 0 };
    const asset = expectOk(await create(tenant, body), 201, onchainAssetSchema);
    expect(asset).toMatchObject({ status: 'deploying', deploy_tx_hash: null, deployed_at: null, key: 'xp', decimals: 0, type: 'erc20' });
    expect(asset).not.toHaveProperty('asset_address');

    const operations = await db(tenant.id)
      .select()
      .from(onchainOperations)
      .where(and(eq(onchainOperations.tenantId, tenant.id), eq(onchainOperations.onchainAssetId, asset.id!)));
    expect(operations).toEqual([expect.objectContaining({ id: expect.stringMatching(/^op_/), kind: 'deploy', status: 'queued', chainId: 31337, nonce: null })]);

    // The key is taken from the moment the deployment is accepted.
    expectError(await create(tenant, body), 409, 'CONFLICT');
  });

  it('deploys each token type (decimals 0 for erc721/erc1155)', async () => {
    const tenant = await createTenant();
    for (const type of ['erc721', 'erc1155'] as const) {
      const asset = expectOk(await create(tenant, { type, chain_id: 31337, name: type, symbol: 'T' }), 201, onchainAssetSchema);
      expect(asset).toMatchObject({ type, status: 'deploying', decimals: 0, key: null });
    }
  });

  it('422 for an unconfigured chain, before anything is written', async () => {
    const tenant = await createTenant();
    expectError(await create(tenant, { type: 'erc721', chain_id: 1, name: 'T', symbol: 'T' }), 422, 'VALIDATION_FAILED', /Chain 1 is not configured; configured chains: 31337, 31338/);
    expect(await db(tenant.id).select().from(onchainOperations).where(eq(onchainOperations.tenantId, tenant.id))).toEqual([]);
  });
});

describe('roles', () => {
  it('admins create; editors and viewers get 403', async () => {
    const tenant = await createTenant();
    const body = { type: 'erc721', chain_id: 31337, name: 'T', symbol: 'T' };
    const admin = await addMember(tenant.id, 'admin');
    expectOk(await portalCall(admin, 'POST', assetsPath(tenant.id), body), 201, onchainAssetSchema);
    for (const role of ['editor', 'viewer'] as const) {
      const member = await addMember(tenant.id, role);
      expectError(await portalCall(member, 'POST', assetsPath(tenant.id), body), 403, 'FORBIDDEN', `Your role (${role}) may not manage onchain assets in this tenant`);
    }
  });
});
