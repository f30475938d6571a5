/**
 * `npm run dev`: the whole service on this machine, offline, no Cloudflare account.
 * 1. dev keys and `.dev.vars` (created on the first run, completed on later ones), 2. the contracts
 * compiled (src/chain/artifacts.generated.ts), 3. anvil for each local chain in CHAINS (the relayer
 * funded), 4. local D1 migrations (the directory and every shard, as `npm run db:migrate -- --local`),
 * 5. `wrangler dev` (the settlement queue consumer runs inside it), 6. a ticker running the
 * every-minute crons (wrangler dev never fires them), 7. the demo tenant seeded through the running
 * server's HTTP API, onchain assets included, 8. a summary printed.
 * The CMS is served at / (wrangler's [build] builds it); its dev sign-in (any email) runs on the
 * port + 10 (scripts/lib/dev-sign-in.ts). Ctrl+C (or SIGTERM to this process) stops them all.
 *
 *   npm run dev [-- --port 8787] [-- --no-seed]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compileContracts } from './lib/compile-contracts';
import { migrateAll } from './db-migrate';
import { explainDevConfiguration } from './lib/dev-config';
import { offlineWranglerEnv } from './lib/offline-env';
import { echoWithoutTickerLines, startCronTicker, type CronTicker } from './lib/cron-ticker';
import { ensureDevSetup, readDemoState, ROOT, writeDemoState, type DemoState } from './lib/dev-files';
import { startDevSignIn, type DevSignIn } from './lib/dev-sign-in';
import { printSummary } from './lib/dev-summary';
import { prepareDevChains, type DevChains } from './lib/local-chain';
import { DEMO_ADMIN_EMAIL, seed } from './seed';

const USAGE = `Usage: npm run dev [-- --port 8787] [-- --no-seed]
  Starts the whole service locally, offline: dev keys and .dev.vars, contracts, anvil, migrated
  D1, wrangler dev on 127.0.0.1:<port>, the minute crons, and the demo tenant seeded through the
  API (skipped with --no-seed). Ctrl+C stops everything. README.md, "Quick start".`;

function options() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: '8787' },
        'no-seed': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exit(2);
  }
}

const values = options();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!/^\d+$/.test(values.port) || Number(values.port) < 1 || Number(values.port) > 65535) {
  console.error(`--port must be a port number (1-65535), not "${values.port}"\n\n${USAGE}`);
  process.exit(2);
}
const HOST = '127.0.0.1';
const PORT = Number(values.port);
const BASE_URL = `http://${HOST}:${PORT}`;
const CRON_TICK_SECONDS = 3;
process.env.LOYALTY_URL = BASE_URL;

const WRANGLER = join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');

const offlineEnv = offlineWranglerEnv();

function log(message: string): void {
  console.log(`[dev] ${message}`);
}

let oneShot: ChildProcess | undefined;
let server: ChildProcess | undefined;
let serverExited: Promise<number> | undefined;
let chains: DevChains | undefined;
let ticker: CronTicker | undefined;
let signIn: DevSignIn | undefined;
let stopping = false;

function runOnce(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    // stdin ignored: non-interactive, so `migrations apply` does not stop to ask for confirmation.
    const child = spawn(process.execPath, [WRANGLER, ...args], { cwd: ROOT, env: offlineEnv, stdio: ['ignore', 'inherit', 'inherit'] });
    oneShot = child;
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      oneShot = undefined;
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: HOST, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const serverRunning = () => Boolean(server?.pid) && server?.exitCode === null && server?.signalCode === null;

/** wrangler runs in its own process group, so one signal reaches wrangler, workerd and esbuild. */
function signalServer(signal: NodeJS.Signals): void {
  if (!server?.pid || !serverRunning()) return;
  try {
    process.kill(-server.pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Stops everything in order: the ticker, then wrangler (so the queue consumer sends nothing more),
 * then anvil (SIGTERM: it writes its state file on the way out), then this process.
 */
async function shutdown(exitCode: number, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (stopping) return;
  stopping = true;
  log('stopping…');
  ticker?.stop();
  oneShot?.kill('SIGTERM');
  if (serverRunning() && serverExited) {
    signalServer(signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM');
    const killer = setTimeout(() => signalServer('SIGKILL'), 5000);
    await serverExited;
    clearTimeout(killer);
  }
  await chains?.stop();
  await signIn?.provider?.stop();
  process.exit(exitCode);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown(signal === 'SIGINT' ? 130 : 143, signal));
// Last resort when this process dies another way: nothing it started outlives it.
process.on('exit', () => {
  signalServer('SIGKILL');
  for (const anvil of chains?.started ?? []) {
    try {
      if (anvil.pid) process.kill(anvil.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
});

async function waitForServer(timeoutMs = 90_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && serverRunning() && !stopping) {
    try {
      const res = await fetch(`${BASE_URL}/api/v1/info`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

/** A fatal start-up problem: said once, in one line, then everything started so far is stopped. */
function fail(message: string): Promise<void> {
  console.error(`[dev] ${message}`);
  return shutdown(1);
}

async function startChains(vars: ReadonlyMap<string, string>): Promise<boolean> {
  try {
    chains = await prepareDevChains(vars, log);
  } catch (error) {
    await fail(error instanceof Error ? error.message : String(error));
    return false;
  }
  for (const line of chains.lines) log(line);
  if (chains.relayerAddress) log(`relayer ${chains.relayerAddress}`);
  for (const anvil of chains.started) {
    void anvil.exited.then((code) => {
      if (!stopping) void fail(`anvil (pid ${anvil.pid}) exited unexpectedly (${code}) ${anvil.stderr()}`);
    });
  }
  return true;
}

function startServer(extraArgs: string[]): void {
  log(`starting wrangler dev on ${BASE_URL} …`);
  // --test-scheduled: the ticker runs the crons through /__scheduled (scripts/lib/cron-ticker.ts).
  server = spawn(process.execPath, [WRANGLER, 'dev', '--ip', HOST, '--port', String(PORT), '--show-interactive-dev-session=false', '--test-scheduled', ...extraArgs], {
    cwd: ROOT,
    env: offlineEnv,
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  if (server.stdout) echoWithoutTickerLines(server.stdout);
  serverExited = new Promise((resolve) => server?.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
  void serverExited.then((code) => {
    if (!stopping) void fail(`wrangler dev exited (${code})`);
  });
}

async function main(): Promise<void> {
  const { key, vars, created, notes } = await ensureDevSetup({ cmsSignIn: true });
  if (created.length > 0) log(`created ${created.join(', ')} (local development only, git-ignored)`);
  for (const note of notes) log(note);
  const problems = explainDevConfiguration(vars);
  if (problems.length > 0) {
    for (const problem of problems) log(problem);
    return fail('the configuration above would make the Worker answer 503 SERVICE_MISCONFIGURED');
  }

  if (await portInUse(PORT)) return fail(`port ${PORT} is already in use (another \`npm run dev\`?). Stop it or use \`npm run dev -- --port 8788\`.`);
  try {
    signIn = await startDevSignIn(vars, PORT, key);
  } catch (error) {
    return fail(`the CMS dev sign-in did not start on port ${PORT + 10}: ${error instanceof Error ? error.message : String(error)}`);
  }

  try {
    const { cacheHit } = await compileContracts();
    log(`contracts compiled into src/chain/artifacts.generated.ts${cacheHit ? ' (cached)' : ''}`);
  } catch (error) {
    return fail(`contracts did not compile: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (stopping || !(await startChains(vars))) return;

  log('applying local D1 migrations (the directory, then each shard)…');
  try {
    // Once stopping, no further wrangler is started (the one running was signalled).
    const run = (args: string[]) => (stopping ? Promise.resolve(1) : runOnce(args));
    await migrateAll({ target: 'local', config: join(ROOT, 'wrangler.toml') }, run, (step) => log(`migrating ${step}`));
  } catch (error) {
    if (stopping) return;
    return fail(error instanceof Error ? error.message : String(error));
  }
  if (stopping) return;

  startServer(signIn.wranglerArgs);
  if (!(await waitForServer())) {
    if (!stopping) await fail(`the server did not answer ${BASE_URL}/api/v1/info in time`);
    return;
  }
  ticker = startCronTicker(BASE_URL, CRON_TICK_SECONDS * 1000, log);
  // Where `npm run seed` and `npm run gateway` find this server, seeded or not.
  const known = readDemoState();
  writeDemoState({ ...known, adminEmail: known?.adminEmail ?? DEMO_ADMIN_EMAIL, baseUrl: BASE_URL });

  let state: DemoState | undefined;
  if (!values['no-seed']) {
    try {
      ({ state } = await seed(key));
    } catch (err) {
      console.error(`[dev] seed stopped: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (stopping) return;
  printSummary({
    baseUrl: BASE_URL,
    state: state ?? readDemoState(),
    chainLines: chains?.lines ?? [],
    relayerAddress: chains?.relayerAddress,
    tickedCrons: ticker.crons,
    tickSeconds: CRON_TICK_SECONDS,
    cmsSignIn: signIn.line,
  });
}

main().catch((err: unknown) => {
  console.error(err);
  void shutdown(1);
});
