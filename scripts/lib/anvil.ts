/**
 * Spawns and talks to a local anvil (the binary inside `@foundry-rs/anvil-linux-amd64`). Used by
 * `npm run dev` (scripts/lib/local-chain.ts) and the vitest global setup (test/support/global-setup.ts). A plain spawn: `prool` needs Node 22 and `@viem/anvil`
 * is unmaintained.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT } from './dev-files';

export const ANVIL_BIN = join(ROOT, 'node_modules', '@foundry-rs', 'anvil-linux-amd64', 'bin', 'anvil');
const READY_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 5_000;

export type AnvilOptions = {
  chainId: number;
  host?: string;
  /** A free port is picked when omitted. */
  port?: number;
  /** Transactions stay pending until `evm_mine` (stuck-transaction tests). */
  noMining?: boolean;
  /** Loads the chain from this file if it exists and dumps it there on exit and every `stateIntervalSeconds`. */
  statePath?: string;
  stateIntervalSeconds?: number;
  /** Own process group: a terminal's Ctrl+C then reaches only the parent, which stops anvil in its own order. */
  detached?: boolean;
};

export type Anvil = {
  rpcUrl: string;
  pid: number | undefined;
  /** Resolves with anvil's exit code (or 1 when a signal ended it) however it ends. */
  exited: Promise<number>;
  /** SIGTERM (anvil dumps its state), then SIGKILL if it has not exited after 5 s. */
  stop(): Promise<void>;
  /** What anvil wrote to stderr (errors only: it runs with --silent). */
  stderr(): string;
};

type JsonRpcReply = { result?: unknown; error?: { message?: string } };

/**
 * One JSON-RPC call; throws on a transport error or an RPC error (the message never names the URL).
 * @example await jsonRpc(rpcUrl, 'anvil_setBalance', [address, '0x3635c9adc5dea00000'])
 */
export async function jsonRpc(rpcUrl: string, method: string, params: unknown[] = [], timeoutMs = 5_000): Promise<unknown> {
  // A ref'd timer, not AbortSignal.timeout: against a peer that accepts and then closes without
  // answering, fetch may never settle, and an unref'd timer would let Node exit mid-await.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`${method}: no answer within ${timeoutMs} ms`)), timeoutMs);
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: controller.signal,
    });
    const reply = (await res.json()) as JsonRpcReply;
    if (reply.error) throw new Error(`${method}: ${reply.error.message ?? 'RPC error'}`);
    return reply.result;
  } finally {
    clearTimeout(timer);
  }
}

export type NodeProbe = { kind: 'closed' } | { kind: 'evm'; chainId: number } | { kind: 'other' };

/** What listens at `rpcUrl`: nothing, an EVM node (and its chain id), or something else. */
export async function probeNode(rpcUrl: string): Promise<NodeProbe> {
  try {
    const result = await jsonRpc(rpcUrl, 'eth_chainId', [], 2_000);
    return typeof result === 'string' && /^0x[0-9a-f]+$/i.test(result) ? { kind: 'evm', chainId: Number(BigInt(result)) } : { kind: 'other' };
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    return code === 'ECONNREFUSED' ? { kind: 'closed' } : { kind: 'other' };
  }
}

/** A port the OS just handed out (listen on 0, then release it for anvil). */
async function freePort(host: string): Promise<number> {
  const server = createServer().listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function anvilArgs(options: AnvilOptions, host: string, port: number): string[] {
  const args = ['--host', host, '--port', String(port), '--chain-id', String(options.chainId), '--silent'];
  if (options.noMining) args.push('--no-mining');
  if (options.statePath) args.push('--state', options.statePath, '--state-interval', String(options.stateIntervalSeconds ?? 1));
  return args;
}

/**
 * Starts anvil and resolves once it answers eth_chainId with the expected id (50-165 ms usually).
 * @example const anvil = await startAnvil({ chainId: 31337 }); ... await anvil.stop();
 */
export async function startAnvil(options: AnvilOptions): Promise<Anvil> {
  if (!existsSync(ANVIL_BIN)) throw new Error(`anvil is not installed (${ANVIL_BIN} is missing): run npm ci`);
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (await freePort(host));
  const child = spawn(ANVIL_BIN, anvilArgs(options, host, port), { stdio: ['ignore', 'ignore', 'pipe'], detached: options.detached ?? false });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
  // Safety net if the parent dies without stopping it (a crashed test run): never leave a node behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));
  const running = () => child.exitCode === null && child.signalCode === null;
  const rpcUrl = `http://${host}:${port}`;
  const stop = async () => {
    if (!running()) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };
  const anvil: Anvil = { rpcUrl, pid: child.pid, exited, stop, stderr: () => stderr.trim() };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (!running()) throw new Error(`anvil (chain ${options.chainId}) exited with ${child.exitCode ?? child.signalCode}: ${stderr.trim()}`);
    const probe = await probeNode(rpcUrl);
    if (probe.kind === 'evm' && probe.chainId === options.chainId) return anvil;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`anvil (chain ${options.chainId}) did not answer eth_chainId on ${rpcUrl} within ${READY_TIMEOUT_MS} ms ${stderr.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
