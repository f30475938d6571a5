/**
 * `npm run test:sdk-package` (CI, .ci/run): the SDK as a partner gets it.
 * 1. Packs it (`npm run sdk:pack`) and installs the tarball into an empty project with
 *    `npm install <tarball>` alone.
 * 2. Type-checks and compiles sdk/consumer/partner.ts with `tsc --strict` and no tsconfig of ours
 *    (no @types/node either: the package's types must stand on their own).
 * 3. Runs the compiled script, then its plain JavaScript twin partner.mjs, under Node against the
 *    Worker (`wrangler dev` with fresh local databases, e2e/stack.ts), with a webhook receiver the
 *    Worker delivers to: each creates a customer, earns XP with an idempotency key, reads the
 *    transaction and verifies the webhook about it.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopAll, stopEverythingOnExit } from '../bench/lib/processes';
import { startStack, type Stack } from '../e2e/stack';
import { mintPortalToken } from './lib/portal-token';
import { ROOT } from './lib/dev-files';
import { packSdk } from './lib/sdk-package';
import { createPortalClient } from '../sdk/src';
import { startWebhookReceiver } from '../test/support/webhook-receiver';

const log = (line: string) => console.log(`[sdk-package] ${line}`);
/** Asynchronously: the receiver the script polls answers from this process's event loop. */
const runNode = async (project: string, script: string) => (await promisify(execFile)(process.execPath, [script], { cwd: project, encoding: 'utf8' })).stdout.trim();
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/** An empty project with the tarball installed, and the partner scripts copied in. */
function partnerProject(tarball: string): string {
  const project = mkdtempSync(join(tmpdir(), 'loyalty-partner-'));
  process.once('exit', () => rmSync(project, { recursive: true, force: true }));
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'partner', private: true, type: 'module' }, null, 2)}\n`);
  execFileSync('npm', ['install', tarball, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project, stdio: 'inherit' });
  for (const file of ['partner.ts', 'partner.mjs']) copyFileSync(join(ROOT, 'sdk/consumer', file), join(project, file));
  return project;
}

/** A tenant with an API key and a webhook endpoint on the receiver's inbox, made through the portal API. */
async function tenantFor(stack: Stack, inbox: string) {
  const portal = createPortalClient({ baseUrl: `${stack.baseUrl}/api/v1`, token: () => mintPortalToken(stack.key, { email: 'partner-admin@example.com' }) });
  const unwrap = <T>(what: string, answer: { data?: { data: T }; error?: { message: string } }): T => {
    if (answer.data) return answer.data.data;
    throw new Error(`${what}: ${answer.error?.message ?? 'no answer'}`);
  };
  const tenant = unwrap('create a tenant', await portal.createTenant({ body: { name: 'Partner', slug: `partner-${Date.now()}` } }));
  const path = { tenantId: tenant.id };
  const key = unwrap('create an API key', await portal.createApiKey({ params: { path }, body: { name: 'partner backend' } }));
  const endpoint = unwrap('create a webhook endpoint', await portal.createWebhookEndpoint({ params: { path }, body: { url: inbox, event_types: ['xp.transaction.completed'] } }));
  return { keyId: key.key_id, keySecret: key.secret, webhookSecret: endpoint.secret };
}

async function main(): Promise<void> {
  stopEverythingOnExit(log);
  const { tarball, version } = packSdk(ROOT);
  log(`packed ${tarball} (${version})`);
  const project = partnerProject(tarball);
  const receiver = await startWebhookReceiver();
  const stack = await startStack(log);
  try {
    const hook = `${receiver.url}/hook/partner`;
    const tenant = await tenantFor(stack, hook);
    const settings = (run: string) => ({ api: `${stack.baseUrl}/api/v1`, ...tenant, webhookInbox: `${receiver.url}/received/partner`, run });
    const settingsModule = (run: string) => `export const settings = ${JSON.stringify(settings(run))};\n`;

    writeFileSync(join(project, 'settings.ts'), settingsModule('typescript'));
    execFileSync(process.execPath, [TSC, '--strict', '--module', 'nodenext', '--target', 'es2022', '--outDir', 'out', 'partner.ts'], { cwd: project, stdio: 'inherit' });
    log('partner.ts type-checks with tsc --strict against the installed package');
    log(`TypeScript, compiled: ${await runNode(project, 'out/partner.js')}`);

    writeFileSync(join(project, 'settings.js'), settingsModule('javascript'));
    log(`plain JavaScript: ${await runNode(project, 'partner.mjs')}`);
    log('passed');
  } catch (error) {
    // wrangler's last lines say what the Worker did (the webhook consumer's deliveries, a failure's log).
    const tail = readFileSync(stack.logFile, 'utf8').split('\n').slice(-40).join('\n');
    throw new Error(`${error instanceof Error ? error.message : String(error)}\nwrangler's last lines:\n${tail}`);
  } finally {
    await receiver.stop();
    await stack.stop();
    await stopAll();
  }
}

main().catch((error: unknown) => {
  console.error(`[sdk-package] failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
