/**
 * The processes the bench starts (wrangler one-shots and `wrangler dev` servers), each in its own
 * process group so one signal reaches wrangler, workerd and esbuild; every one of them is stopped
 * on the way out, whether the bench ends, fails, or is interrupted (Ctrl+C, SIGTERM).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT } from '../../scripts/lib/dev-files';
import { offlineWranglerEnv } from '../../scripts/lib/offline-env';

const WRANGLER = join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
export const HOST = '127.0.0.1';

// Plain text in the log files.
const offlineEnv = offlineWranglerEnv({ FORCE_COLOR: '0' });

const running = new Set<ChildProcess>();

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

function exited(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode ?? 1);
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

/** `output`: the descriptor of the log file that gets stdout and stderr. */
function startWrangler(args: string[], output: number): ChildProcess {
  // stdin ignored: non-interactive, so `migrations apply` does not stop to ask for confirmation.
  const child = spawn(process.execPath, [WRANGLER, ...args], { cwd: ROOT, env: offlineEnv, stdio: ['ignore', output, output], detached: true });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Runs one wrangler command to its end, its output into `logFile`; throws with the log's tail on a non-zero exit. */
export async function runWrangler(args: string[], logFile: string): Promise<void> {
  const log = openSync(logFile, 'a');
  const child = startWrangler(args, log);
  closeSync(log);
  const code = await exited(child);
  if (code === 0) return;
  const tail = readFileSync(logFile, 'utf8').split('\n').filter((line) => line.trim()).slice(-8).join('\n');
  throw new Error(`wrangler ${args.slice(0, 3).join(' ')} exited with ${code} (log: ${logFile}):\n${tail}`);
}

/** A port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** `processGroup`: wrangler's process group (it, workerd and esbuild), for sampling their memory. */
export type DevServer = { name: string; baseUrl: string; inspectorPort: number; processGroup: number; stop(): Promise<void> };

async function stopChild(child: ChildProcess): Promise<void> {
  signalGroup(child, 'SIGTERM');
  const killer = setTimeout(() => signalGroup(child, 'SIGKILL'), 5000);
  await exited(child);
  clearTimeout(killer);
}

/**
 * `wrangler dev` of the Worker configured by `config`, on a free port, persisting to `persistTo`,
 * with vars from `envFile` (which replaces `.dev.vars`: the developer's file is neither read nor
 * written). Resolves once `readyPath` answers 2xx.
 */
export async function startDevServer(input: {
  name: string;
  config: string;
  persistTo: string;
  logFile: string;
  envFile?: string;
  vars?: Record<string, string>;
  readyPath: string;
}): Promise<DevServer> {
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const args = ['dev', '-c', input.config, '--ip', HOST, '--port', String(port), '--inspector-port', String(inspectorPort)];
  // --test-scheduled: the crons run through /__scheduled (scripts/lib/cron-ticker.ts says why).
  args.push('--persist-to', input.persistTo, '--show-interactive-dev-session=false', '--test-scheduled');
  if (input.envFile) args.push('--env-file', input.envFile);
  for (const [key, value] of Object.entries(input.vars ?? {})) args.push('--var', `${key}:${value}`);
  // Into a file, not the terminal: wrangler logs a line per request, thousands a second under load.
  const log = openSync(input.logFile, 'a');
  const child = startWrangler(args, log);
  closeSync(log);
  const baseUrl = `http://${HOST}:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`wrangler dev (${input.name}) exited before answering (log: ${input.logFile})`);
    try {
      const res = await fetch(`${baseUrl}${input.readyPath}`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return { name: input.name, baseUrl, inspectorPort, processGroup: child.pid ?? 0, stop: () => stopChild(child) };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  await stopChild(child);
  throw new Error(`wrangler dev (${input.name}) did not answer ${baseUrl}${input.readyPath} within 120 s (log: ${input.logFile})`);
}

/** Stops everything still running (in parallel, each SIGTERM then SIGKILL after 5 s). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map(stopChild));
}

/**
 * Ctrl+C, SIGTERM and SIGHUP stop every process started here before this one exits; if this
 * process dies another way, the `exit` hook still kills them.
 */
export function stopEverythingOnExit(log: (message: string) => void): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log(`${signal}: stopping the servers…`);
      void stopAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
  process.on('exit', () => {
    for (const child of running) signalGroup(child, 'SIGKILL');
  });
}
