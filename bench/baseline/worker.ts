/**
 * The bare baseline of `npm run bench`: what a Worker costs with no framework, no validation and
 * no idempotency, on the same wrangler, machine and data. The signed routes pay what the gateway's
 * authentication pays at least (headers read, timestamp compared, HMAC key imported, signature
 * verified with WebCrypto, as src/middleware/gateway-auth.ts does), then one D1 call:
 * - `GET /hello`: JSON, no D1;
 * - `GET /read/{id}`: signed, one internal transaction by primary key;
 * - `POST /insert`: signed, one row inserted, shaped like an `xp_earn` transaction, into a table of
 *   its own (primary key only): a bare insert, which the schema's indexes and triggers leave alone.
 * - `POST /bulk/customers`, `POST /bulk/balances`: the bare batched insert the imports are measured
 *   against: a JSON array of the rows an import file carries, inserted into tables of their own
 *   (primary key only) in D1 batches of BULK_BATCH_ROWS rows, a customer with its attribute values,
 *   a balance as one credit row. Unsigned: one request carries thousands of rows.
 */
// Only D1's type: Request and Response are the standard ones, so this file type-checks with the bench (tsconfig.node.json).
import type { D1Database } from '@cloudflare/workers-types/2023-07-01/index.ts';

/** BENCH_SHARD: the binding (SHARD_<n>, wrangler.toml here) of the shard tenant "large" lives in. */
type Env = { BENCH_SHARD: string; BENCH_KEY_ID: string; BENCH_SECRET: string; SIGNATURE_TOLERANCE_SECONDS: string } & Record<`SHARD_${number}`, D1Database | undefined>;
type InsertBody = { tenant_id: string; user_id: string; amount: string; order_id: string };
type BulkCustomer = { external_id: string; email: string; username: string; country_code: string; status: string; attributes: Record<string, string> };
type BulkBalance = { external_id: string; amount: string; notes: string };

/** Rows per D1 batch: an import's chunk. */
const BULK_BATCH_ROWS = 100;
const BULK_TABLES = [
  `CREATE TABLE IF NOT EXISTS bench_customers (id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, external_id TEXT NOT NULL, email TEXT, username TEXT,
    country_code TEXT, status TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS bench_attribute_values (id TEXT PRIMARY KEY, customer_id TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, created_at TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS bench_credits (id TEXT PRIMARY KEY, external_id TEXT NOT NULL, amount INTEGER NOT NULL, notes TEXT, created_at TEXT NOT NULL)`,
];
let bulkTables: Promise<unknown> | undefined;
const bareId = (prefix: string) => `${prefix}_${crypto.randomUUID().replaceAll('-', '')}`;

/** The statements of one row of an import file, written out as plainly as SQL allows. */
function bulkStatements(db: D1Database, kind: string, row: BulkCustomer | BulkBalance, now: string) {
  if (kind === 'balances') {
    const balance = row as BulkBalance;
    return [db.prepare('INSERT INTO bench_credits (id, external_id, amount, notes, created_at) VALUES (?, ?, ?, ?, ?)').bind(bareId('itx'), balance.external_id, Number(balance.amount), balance.notes, now)];
  }
  const customer = row as BulkCustomer;
  const id = bareId('cus');
  return [
    db.prepare('INSERT INTO bench_customers (id, tenant_id, external_id, email, username, country_code, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .bind(id, 'bench', customer.external_id, customer.email, customer.username, customer.country_code, customer.status, now, now),
    ...Object.entries(customer.attributes).map(([key, value]) =>
      db.prepare('INSERT INTO bench_attribute_values (id, customer_id, key, value, created_at) VALUES (?, ?, ?, ?, ?)').bind(bareId('val'), id, key, value, now),
    ),
  ];
}

async function bulkInsert(db: D1Database, kind: string, rows: (BulkCustomer | BulkBalance)[]): Promise<void> {
  bulkTables ??= db.batch(BULK_TABLES.map((statement) => db.prepare(statement)));
  await bulkTables;
  const now = new Date().toISOString();
  for (let start = 0; start < rows.length; start += BULK_BATCH_ROWS) {
    await db.batch(rows.slice(start, start + BULK_BATCH_ROWS).flatMap((row) => bulkStatements(db, kind, row, now)));
  }
}

const encoder = new TextEncoder();
const BENCH_TABLE = `CREATE TABLE IF NOT EXISTS bench_inserts (id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, user_id TEXT, type TEXT NOT NULL,
  amount INTEGER NOT NULL, metadata TEXT, status TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)`;
/** Created once per isolate, on the first insert. */
let benchTable: Promise<unknown> | undefined;

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function signatureBytes(hex: string | null): Uint8Array<ArrayBuffer> | undefined {
  if (!hex || !/^[0-9a-f]{64}$/.test(hex)) return undefined;
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

/** `timestamp + METHOD + path and query + body`, HMAC-SHA256 under the baseline's secret (docs/GATEWAY-AUTH.md). */
async function verified(request: Request, env: Env, url: URL, body: string): Promise<boolean> {
  const timestamp = request.headers.get('x-tenant-timestamp');
  const signature = signatureBytes(request.headers.get('x-tenant-signature'));
  if (request.headers.get('x-tenant-key') !== env.BENCH_KEY_ID || !timestamp || !/^\d+$/.test(timestamp) || !signature) return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > Number(env.SIGNATURE_TOLERANCE_SECONDS)) return false;
  const key = await crypto.subtle.importKey('raw', encoder.encode(env.BENCH_SECRET), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  return crypto.subtle.verify('HMAC', key, signature, encoder.encode(`${timestamp}${request.method}${url.pathname}${url.search}${body}`));
}

const unauthorized = () => json(401, { success: false, error: { code: 'AUTH_INVALID_CREDENTIALS' } });

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === 'GET' && url.pathname === '/hello') return json(200, { success: true, data: { hello: 'world' } });
    const db = env[env.BENCH_SHARD as `SHARD_${number}`];
    if (!db) return json(500, { success: false, error: { code: 'NO_SHARD', message: `BENCH_SHARD "${env.BENCH_SHARD}" is not a D1 binding of bench/baseline/wrangler.toml` } });

    const read = /^\/read\/([a-z]+_[a-z0-9]+)$/.exec(url.pathname);
    if (request.method === 'GET' && read) {
      if (!(await verified(request, env, url, ''))) return unauthorized();
      const row = await db.prepare('SELECT * FROM internal_transactions WHERE id = ?').bind(read[1]).first();
      return row ? json(200, { success: true, data: row }) : json(404, { success: false, error: { code: 'NOT_FOUND' } });
    }

    if (request.method === 'POST' && url.pathname === '/insert') {
      const body = await request.text();
      if (!(await verified(request, env, url, body))) return unauthorized();
      const input: InsertBody = JSON.parse(body);
      const id = `itx_${crypto.randomUUID().replaceAll('-', '')}`;
      const now = new Date().toISOString();
      benchTable ??= db.prepare(BENCH_TABLE).run();
      await benchTable;
      await db.prepare(
        `INSERT INTO bench_inserts (id, tenant_id, user_id, type, amount, metadata, status, created_at, updated_at)
         VALUES (?, ?, ?, 'xp_earn', ?, ?, 'completed', ?, ?)`,
      )
        .bind(id, input.tenant_id, input.user_id, Number(input.amount), JSON.stringify({ order_id: input.order_id }), now, now)
        .run();
      return json(201, { success: true, data: { id } });
    }
    const bulk = /^\/bulk\/(customers|balances)$/.exec(url.pathname);
    if (request.method === 'POST' && bulk?.[1]) {
      const rows: (BulkCustomer | BulkBalance)[] = await request.json();
      await bulkInsert(db, bulk[1], rows);
      return json(201, { success: true, data: { rows: rows.length } });
    }
    return json(404, { success: false, error: { code: 'NOT_FOUND' } });
  },
};
