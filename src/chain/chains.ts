import { createPublicClient, defineChain, http, type Chain, type PublicClient } from 'viem';

/** chain id -> JSON-RPC address, as configured by the `CHAINS` var. */
export type ChainDirectory = ReadonlyMap<number, string>;

/** `CHAINS` is missing or not `{"<chain id>": "<http(s) url>"}`; the message names the var, never a URL. */
export class ChainConfigError extends Error {
  override readonly name = 'ChainConfigError';
}

/** A chain's RPC failed or could not be reached; the message names the chain, never its URL (it may hold a key). */
export class ChainUnavailableError extends Error {
  override readonly name = 'ChainUnavailableError';
  constructor(
    readonly chainId: number,
    reason: string,
  ) {
    super(`chain ${chainId}: RPC unavailable (${reason})`);
  }
}

const parsed = new Map<string, ChainDirectory>();

/**
 * Parses `CHAINS` (cached per isolate by its text). An unset var is an empty directory: a tenant
 * without onchain assets needs no chain.
 *
 * @example parseChains('{"31337": "http://127.0.0.1:8545"}').get(31337)
 */
export function parseChains(raw: string | undefined): ChainDirectory {
  const text = raw?.trim() ?? '';
  const cached = parsed.get(text);
  if (cached) return cached;
  const directory = new Map<number, string>();
  if (text !== '') {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ChainConfigError('CHAINS is not valid JSON (expected {"<chain id>": "<rpc url>"})');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ChainConfigError('CHAINS must be a JSON object {"<chain id>": "<rpc url>"}');
    }
    for (const [key, url] of Object.entries(value)) {
      const chainId = Number(key);
      if (!/^[1-9][0-9]{0,15}$/.test(key) || !Number.isSafeInteger(chainId)) throw new ChainConfigError(`CHAINS has an invalid chain id "${key.slice(0, 32)}"`);
      if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/.test(url)) throw new ChainConfigError(`CHAINS entry for chain ${chainId} is not an http(s) URL`);
      directory.set(chainId, url);
    }
  }
  parsed.set(text, directory);
  return directory;
}

const chains = new Map<string, Chain>();
const clients = new Map<string, PublicClient>();

/** A viem chain for a configured RPC (defineChain: importing viem/chains costs seconds of startup). */
export function chainFor(chainId: number, rpcUrl: string): Chain {
  const key = `${chainId} ${rpcUrl}`;
  let chain = chains.get(key);
  if (!chain) {
    chain = defineChain({
      id: chainId,
      name: `chain-${chainId}`,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    });
    chains.set(key, chain);
  }
  return chain;
}

/** One public client per RPC per isolate; viem's own retries are off so our backoff decides. */
export function publicClientFor(chainId: number, rpcUrl: string): PublicClient {
  const key = `${chainId} ${rpcUrl}`;
  let client = clients.get(key);
  if (!client) {
    client = createPublicClient({ chain: chainFor(chainId, rpcUrl), transport: http(rpcUrl, { retryCount: 0, timeout: 10_000 }) });
    clients.set(key, client);
  }
  return client;
}

/** The configured chain ids, for error messages ("configured: 31337, 84532"). */
export function configuredChainIds(directory: ChainDirectory): string {
  return directory.size === 0 ? 'none' : [...directory.keys()].sort((a, b) => a - b).join(', ');
}
