import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { mnemonicToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { internalWallets } from '../../src/db/schema';
import { custodialAccount, custodialAddress } from '../../src/domain/wallets';
import { customerSchema } from '../../src/schemas/customer';
import { newId } from '../../src/lib/ids';
import { createCustomerViaApi } from '../support/customers';
import { expectOk } from '../support/http';
import { gatewayRequest, race } from '../support/race';
import { createTenant, createTestApiKey, db, gatewayCall } from '../support/world';

async function walletOf(tenantId: string, userId: string) {
  const rows = await db(tenantId).select().from(internalWallets).where(and(eq(internalWallets.tenantId, tenantId), eq(internalWallets.userId, userId)));
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

describe('custodial wallets', () => {
  it("derives, inside workerd, the same keys as viem's mnemonicToAccount for the index", async () => {
    const mnemonic = env.WALLET_MNEMONIC!;
    for (const index of [0, 1, 7]) {
      const viemAccount = mnemonicToAccount(mnemonic, { addressIndex: index });
      const ours = await custodialAccount(mnemonic, index);
      expect(ours.address).toBe(viemAccount.address);
      expect(ours.publicKey).toBe(viemAccount.publicKey);
    }
    // The well-known first account of the test mnemonic (Hardhat/Anvil account #0).
    expect((await custodialAccount(mnemonic, 0)).address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
  });

  it("derives, inside workerd, the address alone by public derivation: viem's address for the index", async () => {
    const mnemonic = env.WALLET_MNEMONIC!;
    for (const index of [0, 1, 7, 2 ** 31 - 1]) {
      expect(await custodialAddress(mnemonic, index)).toBe(mnemonicToAccount(mnemonic, { addressIndex: index }).address);
    }
  });

  it('creates one custodial wallet with each customer, at the address viem derives for its index', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const first = await createCustomerViaApi(key);
    const second = await createCustomerViaApi(key);

    const a = await walletOf(tenant.id, first.id);
    const b = await walletOf(tenant.id, second.id);
    expect(a).toMatchObject({ walletKind: 'custodial', tenantId: tenant.id, deletedAt: null });
    expect(a.address).toBe(mnemonicToAccount(env.WALLET_MNEMONIC!, { addressIndex: a.derivationIndex }).address);
    expect(b.address).toBe(mnemonicToAccount(env.WALLET_MNEMONIC!, { addressIndex: b.derivationIndex }).address);
    expect(b.derivationIndex).not.toBe(a.derivationIndex);
    expect(b.address).not.toBe(a.address);
  });

  it('gives concurrently created customers distinct derivation indexes and addresses', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    // All six reach the sequence at the same moment (each after its own customer lookup).
    const requests = await Promise.all(Array.from({ length: 6 }, () => gatewayRequest(key, 'POST', '/api/v1/gateway/customers', { body: { external_id: newId('ext') } })));
    const { responses, held } = await race(requests, /insert into "sequences"/i);
    expect(held).toBe(6);
    const created = responses.map((res) => expectOk(res, 201, customerSchema));
    const wallets = await Promise.all(created.map((customer) => walletOf(tenant.id, customer.id)));
    expect(new Set(wallets.map((wallet) => wallet.derivationIndex)).size).toBe(6);
    expect(new Set(wallets.map((wallet) => wallet.address)).size).toBe(6);
  });

  it('keeps the wallet when the customer is updated through the same external_id', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const created = await createCustomerViaApi(key, { external_id: 'wallet-keeper' });
    const before = await walletOf(tenant.id, created.id);
    const res = await gatewayCall(key, 'POST', '/api/v1/gateway/customers', { body: { external_id: 'wallet-keeper', username: 'renamed' } });
    expectOk(res, 200, customerSchema);
    expect(await walletOf(tenant.id, created.id)).toEqual(before);
  });
});
