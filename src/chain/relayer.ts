import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';

/** `RELAYER_PRIVATE_KEY` is missing or not a 32-byte hex key; the message names the var, never its value. */
export class RelayerConfigError extends Error {
  override readonly name = 'RelayerConfigError';
}

const accounts = new Map<string, PrivateKeyAccount>();

/** The relayer's signing account (cached per isolate; the key never leaves this module's callers' memory). */
export function relayerAccount(privateKey: string | undefined): PrivateKeyAccount {
  const key = privateKey?.trim() ?? '';
  let account = accounts.get(key);
  if (!account) {
    if (key === '') throw new RelayerConfigError('RELAYER_PRIVATE_KEY is not set: onchain settlement cannot sign');
    const hex = key.startsWith('0x') ? key : `0x${key}`;
    if (!/^0x[0-9a-fA-F]{64}$/.test(hex)) throw new RelayerConfigError('RELAYER_PRIVATE_KEY is not a 32-byte hex private key');
    account = privateKeyToAccount(hex as `0x${string}`);
    accounts.set(key, account);
  }
  return account;
}
