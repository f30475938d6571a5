import { english, generateMnemonic, mnemonicToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { custodialAccount, custodialAddress } from '../../src/domain/wallets';
import { testKeys } from '../support/keys';

/** Custodial addresses by public derivation (src/domain/wallets.ts), against viem's own derivation from the mnemonic. */

const INDEXES = [0, 1, 7, 1_000, 2 ** 31 - 1];

describe('custodialAddress', () => {
  it("is viem's mnemonicToAccount address for the index, and the signing account's, up to the last unhardened index", async () => {
    const mnemonic = testKeys.walletMnemonic;
    for (const index of INDEXES) {
      const expected = mnemonicToAccount(mnemonic, { addressIndex: index }).address;
      expect(await custodialAddress(mnemonic, index)).toBe(expected);
      expect((await custodialAccount(mnemonic, index)).address).toBe(expected);
    }
    // The well-known first account of the test mnemonic (Hardhat/Anvil account #0).
    expect(await custodialAddress(mnemonic, 0)).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
  });

  it('keeps each mnemonic apart (its parent is cached per mnemonic)', async () => {
    const other = generateMnemonic(english);
    const [ours, theirs] = await Promise.all([custodialAddress(testKeys.walletMnemonic, 3), custodialAddress(other, 3)]);
    expect(theirs).toBe(mnemonicToAccount(other, { addressIndex: 3 }).address);
    expect(theirs).not.toBe(ours);
  });

  it('refuses an index public derivation cannot reach (hardened, negative, fractional)', async () => {
    for (const index of [2 ** 31, -1, 1.5]) {
      await expect(custodialAddress(testKeys.walletMnemonic, index)).rejects.toThrow(`custodial derivation index out of range: ${index}`);
    }
  });

  it('refuses a phrase that is no BIP-39 mnemonic, then still derives from a good one', async () => {
    await expect(custodialAddress('not a mnemonic', 0)).rejects.toThrow('WALLET_MNEMONIC is not a BIP-39 mnemonic');
    expect(await custodialAddress(testKeys.walletMnemonic, 1)).toBe(mnemonicToAccount(testKeys.walletMnemonic, { addressIndex: 1 }).address);
  });
});
