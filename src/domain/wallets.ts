import { secp256k1 } from '@noble/curves/secp256k1';
import { toHex, type Address } from 'viem';
import { HDKey, privateKeyToAccount, publicKeyToAddress, type PrivateKeyAccount } from 'viem/accounts';

/** BIP-44 external chain of the first Ethereum account; custodial wallet `i` is its child `i`. */
const CUSTODIAL_PARENT_PATH = "m/44'/60'/0'/0";
const BIP39_WORD_COUNTS = [12, 15, 18, 21, 24];
/** BIP-32: children from 2^31 on are hardened, derivable only from the private key. */
const HARDENED_OFFSET = 2 ** 31;

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

/** Per isolate and mnemonic, computed once on first use (a failure is forgotten, so the next call tries again). */
function perMnemonic<T>(compute: (mnemonic: string) => Promise<T>): (mnemonic: string) => Promise<T> {
  const cache = new Map<string, Promise<T>>();
  return (mnemonic) => {
    let value = cache.get(mnemonic);
    if (!value) {
      value = compute(mnemonic);
      value.catch(() => cache.delete(mnemonic));
      cache.set(mnemonic, value);
    }
    return value;
  };
}

/** The parent node, derived once per isolate and mnemonic; each wallet then costs one child derivation. */
const parentKey = perMnemonic(async (mnemonic) => HDKey.fromMasterSeed(await bip39Seed(mnemonic)).derive(CUSTODIAL_PARENT_PATH));

/** The parent's public half, as its children's public derivation uses it: the point, its compressed form, the chain code as an HMAC key. */
const publicParent = perMnemonic(async (mnemonic) => {
  const { publicKey, chainCode } = await parentKey(mnemonic);
  if (!publicKey || !chainCode) throw new Error('HD derivation returned no public key');
  const hmacKey = await crypto.subtle.importKey('raw', chainCode, { name: 'HMAC', hash: 'SHA-512' }, false, ['sign']);
  return { point: secp256k1.ProjectivePoint.fromHex(publicKey), publicKey, hmacKey };
});

/**
 * The custodial wallet's address at `derivationIndex`: the address of viem's
 * `mnemonicToAccount(mnemonic, { addressIndex: derivationIndex })` (path m/44'/60'/0'/0/index).
 *
 * BIP-32's public child derivation (CKDpub) from the cached parent point: one HMAC and one
 * multiplication of the generator, added to the parent point, and the uncompressed point hashed
 * into the address. Deriving the private child instead (`custodialAccount`) costs two generator
 * multiplications (HDKey computes the child's public key, the account computes it again), and
 * HDKey's own public derivation three square roots (it round-trips each point through its
 * compressed form), each dearer than the multiplication: an import of thousands of customers spent
 * half its CPU here.
 */
export async function custodialAddress(mnemonic: string, derivationIndex: number): Promise<Address> {
  if (!Number.isSafeInteger(derivationIndex) || derivationIndex < 0 || derivationIndex >= HARDENED_OFFSET) {
    throw new Error(`custodial derivation index out of range: ${derivationIndex}`);
  }
  const parent = await publicParent(mnemonic);
  const data = new Uint8Array(parent.publicKey.length + 4);
  data.set(parent.publicKey);
  new DataView(data.buffer).setUint32(parent.publicKey.length, derivationIndex);
  const digest = new Uint8Array(await crypto.subtle.sign('HMAC', parent.hmacKey, data));
  // The left half is the tweak; out of the curve's range (odds about 2^-127) BIP-32 has no such child, and this throws as HDKey does.
  const tweak = secp256k1.utils.normPrivateKeyToScalar(digest.subarray(0, 32));
  const child = parent.point.add(secp256k1.ProjectivePoint.BASE.multiply(tweak));
  return publicKeyToAddress(toHex(child.toRawBytes(false)));
}

/**
 * The custodial account (its private key) at `derivationIndex`: the same key as viem's
 * `mnemonicToAccount(mnemonic, { addressIndex: derivationIndex })`, to sign as the customer's
 * custodial wallet. For the address alone, `custodialAddress` is cheaper.
 */
export async function custodialAccount(mnemonic: string, derivationIndex: number): Promise<PrivateKeyAccount> {
  const child = (await parentKey(mnemonic)).deriveChild(derivationIndex);
  if (!child.privateKey) throw new Error('HD derivation returned no private key');
  return privateKeyToAccount(toHex(child.privateKey));
}
