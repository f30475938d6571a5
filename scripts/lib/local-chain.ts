/**
 * The chains of `npm run dev`, read from CHAINS in `.dev.vars`. Each entry on this machine
 * (http://127.0.0.1:<port> or localhost) gets an anvil started here, with its state kept in
 * `.dev/anvil-state.json` (chain 31337; `.dev/anvil-state-<id>.json` for others) so the chain
 * survives restarts together with the local D1 in .wrangler/state; an EVM node already listening
 * there with the right chain id is used as is. The relayer is funded on every local chain.
 * Remote entries are left alone: only their chain ids are printed, never their URLs (they may carry
 * a provider key).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatEther, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { jsonRpc, probeNode, startAnvil, type Anvil } from './anvil';
import { DEV_DIR, LOCAL_CHAIN_ID, ROOT } from './dev-files';

const RELAYER_FUNDS = parseEther('1000');
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export type DevChains = {
  /** The anvils started here (stopped by stop()). */
  started: Anvil[];
  /** One line per configured chain, for the log and the summary. */
  lines: string[];
  relayerAddress?: string;
  stop(): Promise<void>;
};

type ChainEntry = { chainId: number; url: URL; local: boolean };

/** CHAINS as written in `.dev.vars`; a value the Worker would reject stops the start with the same reason. */
function chainEntries(raw: string | undefined): ChainEntry[] {
  if (!raw?.trim()) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('CHAINS in .dev.vars is not valid JSON (expected {"<chain id>": "<rpc url>"})');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('CHAINS in .dev.vars must be a JSON object {"<chain id>": "<rpc url>"}');
  return Object.entries(parsed).map(([id, value]) => {
    const chainId = Number(id);
    let url: URL;
    try {
      if (typeof value !== 'string') throw new Error('not a string');
      url = new URL(value);
    } catch {
      throw new Error(`CHAINS in .dev.vars: the entry for chain ${id} is not a URL`);
    }
    return { chainId, url, local: url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && url.port !== '' };
  });
}

/**
 * The chain the demo seed puts its assets on: 31337 when configured on this machine, else another
 * local one. Never a remote chain: deploying there would spend the relayer's real funds unasked.
 */
export function demoChainId(vars: ReadonlyMap<string, string>): number | undefined {
  const local = chainEntries(vars.get('CHAINS')).filter((entry) => entry.local).map((entry) => entry.chainId);
  return local.includes(LOCAL_CHAIN_ID) ? LOCAL_CHAIN_ID : local[0];
}

export function anvilStatePath(chainId: number): string {
  return join(DEV_DIR, chainId === LOCAL_CHAIN_ID ? 'anvil-state.json' : `anvil-state-${chainId}.json`);
}

async function startOrReuse(entry: ChainEntry, log: (message: string) => void): Promise<{ anvil?: Anvil; rpcUrl: string; line: string }> {
  const host = entry.url.hostname === 'localhost' ? '127.0.0.1' : entry.url.hostname.replace(/^\[|\]$/g, '');
  const where = `${entry.url.hostname}:${entry.url.port}`;
  const rpcUrl = `http://${entry.url.host}`;
  const probe = await probeNode(rpcUrl);
  if (probe.kind === 'other') {
    throw new Error(`${where} is taken by something that is not an EVM node: stop it, or point CHAINS in .dev.vars at another port`);
  }
  if (probe.kind === 'evm') {
    if (probe.chainId !== entry.chainId) {
      throw new Error(`${where} answers as chain ${probe.chainId}, but CHAINS in .dev.vars expects chain ${entry.chainId}: stop that node or fix CHAINS`);
    }
    return { rpcUrl, line: `chain ${entry.chainId}: an EVM node already listens on ${where}; used as is (not started, so not stopped or saved, by npm run dev)` };
  }
  const statePath = anvilStatePath(entry.chainId);
  if (!existsSync(statePath) && existsSync(join(ROOT, '.wrangler', 'state'))) {
    log(`new local chain ${entry.chainId} (no ${statePath.slice(ROOT.length + 1)}): assets deployed in earlier runs are not on it; delete .wrangler/state to start both over`);
  }
  const anvil = await startAnvil({ chainId: entry.chainId, host, port: Number(entry.url.port), statePath, stateIntervalSeconds: 1, detached: true });
  return { anvil, rpcUrl, line: `chain ${entry.chainId}: anvil on ${where} (pid ${anvil.pid}, automine, state in ${statePath.slice(ROOT.length + 1)})` };
}

/** The relayer's balance on a chain, for the log; undefined when the RPC does not answer. */
async function balanceOf(rpcUrl: string, address: string): Promise<string | undefined> {
  try {
    const wei = await jsonRpc(rpcUrl, 'eth_getBalance', [address, 'latest']);
    return typeof wei === 'string' ? `${formatEther(BigInt(wei))} ETH` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts (or finds) the local chains named by CHAINS and funds the relayer on them.
 * @example const chains = await prepareDevChains(vars, log); ... await chains.stop();
 */
export async function prepareDevChains(vars: ReadonlyMap<string, string>, log: (message: string) => void): Promise<DevChains> {
  const entries = chainEntries(vars.get('CHAINS'));
  const key = vars.get('RELAYER_PRIVATE_KEY')?.trim() ?? '';
  const hexKey = (key.startsWith('0x') ? key : `0x${key}`) as `0x${string}`;
  if (!/^0x[0-9a-fA-F]{64}$/.test(hexKey)) throw new Error('RELAYER_PRIVATE_KEY in .dev.vars is not a 32-byte hex private key');
  const relayerAddress = privateKeyToAccount(hexKey).address;

  const chains: DevChains = { started: [], lines: [], relayerAddress, stop: async () => void (await Promise.all(chains.started.map((a) => a.stop()))) };
  try {
    for (const entry of entries) {
      if (!entry.local) {
        const balance = await balanceOf(entry.url.href, relayerAddress);
        chains.lines.push(`chain ${entry.chainId}: remote RPC from CHAINS (not started here); relayer balance ${balance ?? 'unknown (RPC did not answer)'}`);
        continue;
      }
      const { anvil, rpcUrl, line } = await startOrReuse(entry, log);
      if (anvil) chains.started.push(anvil);
      try {
        await jsonRpc(rpcUrl, 'anvil_setBalance', [relayerAddress, `0x${RELAYER_FUNDS.toString(16)}`]);
        chains.lines.push(`${line}; relayer funded with ${formatEther(RELAYER_FUNDS)} ETH`);
      } catch (error) {
        chains.lines.push(`${line}; the relayer could not be funded (${error instanceof Error ? error.message : String(error)}): send it gas yourself`);
      }
    }
  } catch (error) {
    await chains.stop(); // do not leave an anvil behind when a later chain fails
    throw error;
  }
  if (entries.length === 0) chains.lines.push('no chain configured (CHAINS is empty in .dev.vars): onchain assets cannot be created');
  return chains;
}
