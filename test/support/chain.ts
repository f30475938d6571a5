/**
 * Onchain test helpers (inside workerd). Chains come from defineChain, never `viem/chains`
 * (that import adds ~8 s of module loading per test file).
 */
import { env } from 'cloudflare:test';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  parseEther,
  toHex,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { referenceContracts } from '../../src/chain/artifacts.generated';

export type TestChainId = 31337 | 31338;
export type ReferenceType = keyof typeof referenceContracts;

/** 31337 automines; 31338 is reserved for the stuck-transaction test (it turns automine off). */
export function testChain(chainId: TestChainId) {
  const url = chainId === 31337 ? env.TEST_RPC_URL : env.TEST_MANUAL_RPC_URL;
  return defineChain({
    id: chainId,
    name: `anvil-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
    // viem derives its polling interval from this (default 12 s -> 4 s polls): anvil is instant.
    blockTime: 200,
  });
}

const publicClients = new Map<TestChainId, PublicClient>();

export function publicClientFor(chainId: TestChainId): PublicClient {
  let client = publicClients.get(chainId);
  if (!client) {
    client = createPublicClient({ chain: testChain(chainId), transport: http() }) as PublicClient;
    publicClients.set(chainId, client);
  }
  return client;
}

/** Raw JSON-RPC (anvil_*, evm_* methods viem has no typed action for here). */
export async function anvilRpc<T = unknown>(chainId: TestChainId, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(testChain(chainId).rpcUrls.default.http[0], {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** A fresh key with 1000 ETH: one per test file, since one account is one nonce sequence. */
export async function fundedRelayer(chainId: TestChainId = 31337): Promise<{ privateKey: Hex; address: Address }> {
  const privateKey = generatePrivateKey();
  const { address } = privateKeyToAccount(privateKey);
  await anvilRpc(chainId, 'anvil_setBalance', [address, toHex(parseEther('1000'))]);
  return { privateKey, address };
}

export function walletClientFor(chainId: TestChainId, privateKey: Hex) {
  return createWalletClient({ account: privateKeyToAccount(privateKey), chain: testChain(chainId), transport: http() });
}

export type DeployOptions = {
  chainId?: TestChainId;
  /** Ownable owner: the relayer for a contract the platform may mint on, anyone else to make mints revert. */
  owner: Address;
  deployerKey: Hex;
  name?: string;
  symbol?: string;
  decimals?: number;
};

/** Deploys a reference contract (contracts/*.sol) and returns its address once mined. */
export async function deployReference(type: ReferenceType, options: DeployOptions): Promise<Address> {
  const { chainId = 31337, owner, deployerKey, name = 'Test Loyalty', symbol = 'TLOY', decimals = 0 } = options;
  const wallet = walletClientFor(chainId, deployerKey);
  let hash: Hex;
  if (type === 'erc20') {
    const { abi, bytecode } = referenceContracts.erc20;
    hash = await wallet.deployContract({ abi, bytecode, args: [name, symbol, decimals, owner] });
  } else if (type === 'erc721') {
    const { abi, bytecode } = referenceContracts.erc721;
    hash = await wallet.deployContract({ abi, bytecode, args: [name, symbol, owner] });
  } else {
    const { abi, bytecode } = referenceContracts.erc1155;
    hash = await wallet.deployContract({ abi, bytecode, args: ['https://loyalty.test/{id}.json', owner] });
  }
  const receipt = await publicClientFor(chainId).waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deploying ${type} failed (${hash})`);
  return receipt.contractAddress;
}

/** ERC-20/ERC-1155 balance; ERC-721: the holder's token count, or 1n/0n for a given tokenId. */
export async function balanceOf(
  chainId: TestChainId,
  type: ReferenceType,
  asset: Address,
  holder: Address,
  tokenId?: bigint,
): Promise<bigint> {
  const client = publicClientFor(chainId);
  if (type === 'erc1155') {
    if (tokenId === undefined) throw new Error('balanceOf(erc1155) needs a tokenId');
    const { abi } = referenceContracts.erc1155;
    return client.readContract({ address: asset, abi, functionName: 'balanceOf', args: [holder, tokenId] });
  }
  if (type === 'erc721' && tokenId !== undefined) {
    const { abi } = referenceContracts.erc721;
    const owner = await client.readContract({ address: asset, abi, functionName: 'ownerOf', args: [tokenId] });
    return owner.toLowerCase() === holder.toLowerCase() ? 1n : 0n;
  }
  const { abi } = referenceContracts[type];
  return client.readContract({ address: asset, abi, functionName: 'balanceOf', args: [holder] });
}
