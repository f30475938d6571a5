import { toHex } from 'viem';
import { HDKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';

/** BIP-44 external chain of the first Ethereum account; custodial wallet `i` is its child `i`. */
const CUSTODIAL_PARENT_PATH = "m/44'/60'/0'/0";
const BIP39_WORD_COUNTS = [12, 15, 18, 21, 24];

/**
 * The BIP-39 seed (PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic", no passphrase), computed by
 * WebCrypto: viem's `mnemonicToAccount` runs the same PBKDF2 in JavaScript, which costs a Worker
 * hundreds of milliseconds of CPU; natively it is about a millisecond.
 */
async function bip39Seed(mnemonic: string): Promise<Uint8Array> {
  const normalized = mnemonic.normalize('NFKD');
  if (!BIP39_WORD_COUNTS.includes(normalized.split(' ').length)) throw new Error('WALLET_MNEMONIC is not a BIP-39 mnemonic');
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(normalized), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-512', salt: encoder.encode('mnemonic'), iterations: 2048 }, key, 512);
  return new Uint8Array(bits);
}

/** The parent node, derived once per isolate and mnemonic; each wallet then costs one child derivation. */
const parents = new Map<string, Promise<HDKey>>();

function parentKey(mnemonic: string): Promise<HDKey> {
  let parent = parents.get(mnemonic);
  if (!parent) {
    parent = bip39Seed(mnemonic).then((seed) => HDKey.fromMasterSeed(seed).derive(CUSTODIAL_PARENT_PATH));
    parent.catch(() => parents.delete(mnemonic));
    parents.set(mnemonic, parent);
  }
  return parent;
}

/**
 * The custodial account at `derivationIndex`: the same key as viem's
 * `mnemonicToAccount(mnemonic, { addressIndex: derivationIndex })` (path m/44'/60'/0'/0/index).
 */
export async function custodialAccount(mnemonic: string, derivationIndex: number): Promise<PrivateKeyAccount> {
  const child = (await parentKey(mnemonic)).deriveChild(derivationIndex);
  if (!child.privateKey) throw new Error('HD derivation returned no private key');
  return privateKeyToAccount(toHex(child.privateKey));
}
