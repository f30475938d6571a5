/**
 * The imports measurement (`--only imports`; issue 24): a customers file and an opening-balances
 * file of `--import-rows` rows each, uploaded to `POST /tenant/{large}/imports` and applied by the
 * Worker's own queue consumer under `wrangler dev`, against the bare batched D1 insert of the same
 * rows (the baseline's `POST /bulk/...`). Rates are rows per second; the first and the last 10,000
 * rows are timed apart (by polling the job), so a rate that sinks as the tenant grows shows.
 */
import type { BenchTenant } from './state';

export type ImportRun = {
  kind: 'customers' | 'balances';
  rows: number;
  /** Upload to completion. */
  seconds: number;
  rowsFailed: number;
  /** Rows per second over the first and the last WINDOW rows (from the 202 on). */
  firstRate: number;
  lastRate: number;
  baselineSeconds: number;
  /** The bare insert's rows per second over its own first and last WINDOW rows, for comparison. */
  baselineFirstRate: number;
  baselineLastRate: number;
};

type Log = (message: string) => void;
type Job = { id: string; status: string; rows_total: number; rows_ok: number; rows_failed: number; errors: { row: number; message: string }[] };

/** The `--only` name of this measurement. */
export const IMPORTS = 'imports';
export const IMPORT_WINDOW = 10_000;
const POLL_MS = 250;
/** Rows per request to the baseline (each inserted in batches of an import chunk's size). */
const BASELINE_REQUEST_ROWS = 2_000;
const COUNTRIES = ['US', 'DE', 'FR', 'GB', 'JP', 'BR', 'IN', 'ES', 'IT', 'NL'];
const DRINKS = ['espresso', 'flat white', 'matcha latte', 'cold brew', 'chai latte'];

type Customer = { external_id: string; email: string; username: string; country_code: string; status: string; attributes: Record<string, string> };
type Balance = { external_id: string; amount: string; notes: string };

function customerRows(run: string, rows: number): Customer[] {
  return Array.from({ length: rows }, (_, i) => ({
    external_id: `imp-${run}-${i}`,
    email: `imp-${run}-${i}@example.com`,
    username: `member ${i}`,
    country_code: COUNTRIES[i % COUNTRIES.length]!,
    status: 'active',
    attributes: { favorite_drink: DRINKS[i % DRINKS.length]!, visits_per_month: String(i % 30) },
  }));
}

const quoted = (value: string) => (/[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
const csvOf = (header: string[], lines: string[][]) => [header, ...lines].map((line) => line.map(quoted).join(',')).join('\r\n') + '\r\n';

function customersCsv(rows: Customer[]): string {
  const header = ['external_id', 'email', 'username', 'country_code', 'status', 'attr.favorite_drink', 'attr.visits_per_month'];
  return csvOf(header, rows.map((row) => [row.external_id, row.email, row.username, row.country_code, row.status, row.attributes.favorite_drink!, row.attributes.visits_per_month!]));
}

function balancesCsv(rows: Balance[]): string {
  return csvOf(['external_id', 'amount', 'notes'], rows.map((row) => [row.external_id, row.amount, row.notes]));
}

/** Uploads the file, then polls the job: the times at which its rows done crossed each window. */
async function runImport(worker: string, tenant: BenchTenant, token: string, kind: ImportRun['kind'], csv: string, rows: number, log: Log) {
  const headers = { authorization: `Bearer ${token}` };
  const started = performance.now();
  const res = await fetch(`${worker}/api/v1/tenant/${tenant.id}/imports?kind=${kind}`, { method: 'POST', headers: { ...headers, 'content-type': 'text/csv' }, body: csv });
  const created = (await res.json()) as { data: Job };
  if (res.status !== 202) throw new Error(`import upload answered ${res.status}: ${JSON.stringify(created).slice(0, 500)}`);
  const accepted = performance.now();
  log(`${kind}: ${rows.toLocaleString('en')} rows uploaded in ${((accepted - started) / 1000).toFixed(1)} s; applying…`);
  let firstDone: number | undefined;
  let lastStart: number | undefined;
  for (let reported = 0; ; ) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const job = ((await (await fetch(`${worker}/api/v1/tenant/${tenant.id}/imports/${created.data.id}`, { headers })).json()) as { data: Job }).data;
    const done = job.rows_ok + job.rows_failed;
    const now = performance.now();
    if (firstDone === undefined && done >= Math.min(IMPORT_WINDOW, rows)) firstDone = now;
    if (lastStart === undefined && done >= rows - IMPORT_WINDOW) lastStart = now;
    if (done - reported >= rows / 10) {
      reported = done;
      log(`${kind}: ${done.toLocaleString('en')} rows applied, ${((now - accepted) / 1000).toFixed(0)} s`);
    }
    if (job.status === 'completed' || job.status === 'failed') {
      if (job.rows_failed > 0) log(`${kind}: ${job.rows_failed} rows failed, e.g. ${JSON.stringify(job.errors.slice(0, 3))}`);
      const window = Math.min(IMPORT_WINDOW, rows);
      return {
        seconds: (now - started) / 1000,
        rowsFailed: job.rows_failed,
        firstRate: window / (((firstDone ?? now) - accepted) / 1000),
        lastRate: window / ((now - (lastStart ?? accepted)) / 1000),
      };
    }
  }
}

/** The bare insert of the rows: its seconds, and its rates over the first and the last WINDOW rows (timed by request). */
async function runBaseline(baseline: string, kind: ImportRun['kind'], rows: (Customer | Balance)[]) {
  const started = performance.now();
  const window = Math.min(IMPORT_WINDOW, rows.length);
  let firstDone: number | undefined;
  let lastStart: number | undefined;
  for (let start = 0; start < rows.length; start += BASELINE_REQUEST_ROWS) {
    if (lastStart === undefined && start >= rows.length - window) lastStart = performance.now();
    const res = await fetch(`${baseline}/bulk/${kind}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rows.slice(start, start + BASELINE_REQUEST_ROWS)) });
    if (res.status !== 201) throw new Error(`baseline bulk insert answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    if (firstDone === undefined && start + BASELINE_REQUEST_ROWS >= window) firstDone = performance.now();
  }
  const ended = performance.now();
  return {
    baselineSeconds: (ended - started) / 1000,
    baselineFirstRate: window / (((firstDone ?? ended) - started) / 1000),
    baselineLastRate: window / ((ended - (lastStart ?? started)) / 1000),
  };
}

/** Customers first (the balances file credits them), each against its baseline. */
export async function measureImports(servers: { worker: string; baseline: string }, tenant: BenchTenant, token: string, rows: number, log: Log): Promise<ImportRun[]> {
  const run = Date.now().toString(36);
  const customers = customerRows(run, rows);
  const balances: Balance[] = customers.map((customer, i) => ({ external_id: customer.external_id, amount: String(100 + (i % 900)), notes: 'Opening balance' }));
  const results: ImportRun[] = [];
  for (const [kind, list, csv] of [['customers', customers, customersCsv(customers)], ['balances', balances, balancesCsv(balances)]] as const) {
    const worker = await runImport(servers.worker, tenant, token, kind, csv, rows, log);
    log(`${kind}: the bare batched insert of the same rows…`);
    results.push({ kind, rows, ...worker, ...(await runBaseline(servers.baseline, kind, list)) });
  }
  return results;
}
