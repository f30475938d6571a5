/**
 * Starts a local anvil node for the test run (Node side, used by the vitest global setup).
 * A plain spawn: `prool` needs Node 22 and `@viem/anvil` is unmaintained.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ANVIL_BIN = fileURLToPath(
  new URL('../../node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil', import.meta.url),
);
const READY_TIMEOUT_MS = 20_000;

export type AnvilOptions = { port?: number; chainId: number; noMining?: boolean };
export type Anvil = { rpcUrl: string; stop(): Promise<void> };

/** A port the OS just handed out (listen on 0, then release it for anvil). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startAnvil({ port, chainId, noMining = false }: AnvilOptions): Promise<Anvil> {
  const p = port ?? (await freePort());
  const args = ['--host', '127.0.0.1', '--port', String(p), '--chain-id', String(chainId), '--silent'];
  const child = spawn(ANVIL_BIN, noMining ? [...args, '--no-mining'] : args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit');
  // Safety net if vitest dies without running the teardown: never leave a node behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));
  const rpcUrl = `http://127.0.0.1:${p}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };

  // Ready when it answers eth_chainId (50-165 ms usually); fail fast if the process dies.
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil (chain ${chainId}) exited with ${child.exitCode}: ${stderr}`);
    try {
      const res = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      if (((await res.json()) as { result?: string }).result === `0x${chainId.toString(16)}`) return { rpcUrl, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`anvil (chain ${chainId}) did not answer eth_chainId on ${rpcUrl} within ${READY_TIMEOUT_MS} ms ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
