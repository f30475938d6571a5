/**
 * `npm run dev`: the whole service on this machine, offline, no Cloudflare account.
 * 1. dev key pair and `.dev.vars` (first run only), 2. local D1 migrations, 3. `wrangler dev`,
 * 4. the demo tenant seeded through the running server's HTTP API, 5. credentials printed.
 * Ctrl+C (or SIGTERM to this process) stops wrangler and workerd with it.
 *
 *   npm run dev [-- --port 8787] [-- --no-seed]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureDevSetup, readDemoState, ROOT, type DemoState } from './lib/dev-files';
import { seed } from './seed';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    'no-seed': { type: 'boolean', default: false },
  },
});
const HOST = '127.0.0.1';
const PORT = Number(values.port);
const BASE_URL = `http://${HOST}:${PORT}`;
process.env.LOYALTY_URL = BASE_URL;

const WRANGLER = join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');

/** Keeps wrangler and miniflare off the network: no metrics, no error reports, no Request.cf download, no update check. */
const offlineEnv: NodeJS.ProcessEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  // The banner is where wrangler asks the npm registry for a newer version.
  WRANGLER_HIDE_BANNER: 'true',
};

function log(message: string): void {
  console.log(`[dev] ${message}`);
}

let oneShot: ChildProcess | undefined;

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

let server: ChildProcess | undefined;
let serverExited: Promise<number> = new Promise(() => undefined);
let stopping = false;

/** wrangler runs in its own process group, so one signal reaches wrangler, workerd and esbuild. */
function signalServer(signal: NodeJS.Signals): void {
  if (!server?.pid || server.exitCode !== null || server.signalCode !== null) return;
  try {
    process.kill(-server.pid, signal);
  } catch {
    // already gone
  }
}

function stop(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  if (!server) {
    oneShot?.kill('SIGTERM');
    process.exit(130);
  }
  log('stopping…');
  signalServer(signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM');
  setTimeout(() => {
    signalServer('SIGKILL');
    process.exit(1);
  }, 5000).unref();
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal));
process.on('exit', () => signalServer('SIGKILL'));

async function waitForServer(timeoutMs = 90_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void serverExited.then(() => {
    exited = true;
  });
  while (Date.now() < deadline && !exited && !stopping) {
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

function printSummary(state: DemoState | undefined): void {
  const line = '─'.repeat(72);
  const out = [
    '',
    line,
    ` Loyalty API (local)   ${BASE_URL}/api/v1`,
    ` OpenAPI document      ${BASE_URL}/api/v1/openapi.json`,
    ` API docs (Swagger UI) ${BASE_URL}/api/v1/docs`,
  ];
  if (state?.tenant) out.push(` Demo tenant           ${state.tenant.name} (${state.tenant.slug})  id ${state.tenant.id}`);
  if (state?.apiKey) {
    out.push(` Gateway API key id    ${state.apiKey.keyId}`);
    out.push(` Gateway API secret    ${state.apiKey.secret}   (kept in .dev/demo.json)`);
  }
  out.push(
    '',
    ' Portal token (the demo super_admin; any other email is a new account with no tenant):',
    `   TOKEN=$(npm run -s token -- --email ${state?.adminEmail ?? 'demo-admin@example.com'})`,
    `   curl -H "Authorization: Bearer $TOKEN" ${BASE_URL}/api/v1/user/me`,
  );
  if (state?.tenant) out.push(`   curl -H "Authorization: Bearer $TOKEN" ${BASE_URL}/api/v1/tenant/${state.tenant.id}/tiers`);
  out.push(
    ' Signed gateway call with the demo key:',
    '   npm run gateway -- GET /api/v1/gateway/internal-transactions/<id>',
    ' Run the Cron Trigger jobs (idempotency cleanup) by hand:',
    `   curl "${BASE_URL}/__scheduled?cron=0+*+*+*+*"`,
    '',
    ' Ctrl+C stops the server. Data lives in .wrangler/state (delete it to start over).',
    line,
  );
  console.log(out.join('\n'));
}

async function main(): Promise<void> {
  const { key, created } = await ensureDevSetup();
  if (created.length > 0) log(`created ${created.join(', ')} (local development only, git-ignored)`);

  if (await portInUse(PORT)) {
    console.error(`[dev] port ${PORT} is already in use (another \`npm run dev\`?). Stop it or use \`npm run dev -- --port 8788\`.`);
    process.exit(1);
  }

  log('applying local D1 migrations…');
  const migrated = await runOnce(['d1', 'migrations', 'apply', 'DB', '--local']);
  if (migrated !== 0) {
    console.error(`[dev] migrations failed (exit ${migrated})`);
    process.exit(migrated);
  }
  if (stopping) process.exit(130);

  log(`starting wrangler dev on ${BASE_URL} …`);
  server = spawn(process.execPath, [WRANGLER, 'dev', '--ip', HOST, '--port', String(PORT), '--show-interactive-dev-session=false', '--test-scheduled'], {
    cwd: ROOT,
    env: offlineEnv,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  serverExited = new Promise((resolve) => server?.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
  void serverExited.then((code) => {
    if (!stopping) console.error(`[dev] wrangler dev exited (${code})`);
    process.exit(stopping ? 0 : code || 1);
  });

  if (!(await waitForServer())) {
    if (!stopping) console.error(`[dev] the server did not answer ${BASE_URL}/api/v1/info in time`);
    stop('SIGTERM');
    return;
  }

  let state: DemoState | undefined;
  if (!values['no-seed']) {
    try {
      ({ state } = await seed(key));
    } catch (err) {
      console.error(`[dev] seed stopped: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (!stopping) printSummary(state ?? readDemoState());
}

main().catch((err: unknown) => {
  console.error(err);
  stop('SIGTERM');
  process.exitCode = 1;
});
