/**
 * Sends one signed gateway request to the local dev server with the demo API key (`.dev/demo.json`,
 * written by `npm run dev`) and prints the status and body.
 *
 *   npm run gateway -- GET /api/v1/gateway/internal-transactions/ID
 *   npm run gateway -- POST /gateway/xp --body '{"user_id":"...","type":"xp_earn","amount":"50"}'
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { apiCall, baseUrl } from './lib/api-client';
import { readDemoState, useDemoServer } from './lib/dev-files';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    body: { type: 'string' },
    'idempotency-key': { type: 'string' },
    'key-id': { type: 'string' },
    secret: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

const demo = readDemoState();
useDemoServer();

const usage = `Usage: npm run gateway -- METHOD PATH [--body JSON] [--idempotency-key KEY] [--key-id ID --secret SECRET]
  PATH from /api/v1 (the prefix may be left out), quoted for the shell; it is signed in its canonical
  (WHATWG-serialized) form, e.g. ?tier_name=a'b as ?tier_name=a%27b. Writes get a random X-Idempotency-Key
  unless given.
  The key defaults to the demo tenant's key in .dev/demo.json. Server: ${baseUrl()} (LOYALTY_URL).`;

const [method, path] = positionals;
if (values.help || !method || !path || positionals.length > 2) {
  console.log(usage);
  process.exit(values.help ? 0 : 2);
}

const demoKey = demo?.apiKey;
const keyId = values['key-id'] ?? demoKey?.keyId;
const secret = values.secret ?? demoKey?.secret;
if (!keyId || !secret) {
  console.error('No API key: run `npm run dev` first (it creates the demo key in .dev/demo.json), or pass --key-id and --secret.');
  process.exit(2);
}

let body: unknown;
if (values.body !== undefined) {
  try {
    body = JSON.parse(values.body);
  } catch {
    console.error('--body is not valid JSON');
    process.exit(2);
  }
}

const verb = method.toUpperCase();
const isWrite = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(verb);
const idempotencyKey = values['idempotency-key'] ?? (isWrite ? `cli-${randomUUID()}` : undefined);

try {
  const res = await apiCall(verb, path, { gatewayKey: { keyId, secret }, body, idempotencyKey });
  const replayed = res.headers.get('idempotent-replayed');
  console.log(`${res.method} ${res.path} -> HTTP ${res.status}${idempotencyKey ? ` (X-Idempotency-Key: ${idempotencyKey}${replayed ? `, replayed: ${replayed}` : ''})` : ''}`);
  console.log(typeof res.body === 'string' ? res.body : JSON.stringify(res.body, null, 2));
  process.exitCode = res.ok ? 0 : 1;
} catch (err) {
  console.error(`Could not reach ${baseUrl()}: ${err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)}. Is \`npm run dev\` running?`);
  process.exitCode = 1;
}
