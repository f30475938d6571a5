/**
 * Bulk load straight into the local D1 that `wrangler dev --persist-to` uses: Miniflare (the
 * engine wrangler itself runs on) opened on the same persistence directory and database id, and
 * `db.batch()` of multi-row INSERTs, a few thousand rows per batch. No native dependency; the
 * Worker is stopped meanwhile, so only one process has the SQLite file open. This is also what
 * `wrangler d1 execute --local --file` does, minus writing and re-parsing one huge SQL file
 * (bench/README.md has the comparison).
 */
import { readFileSync } from 'node:fs';
import { Miniflare } from 'miniflare';
import { tenantChunks, type TenantPlan } from './dataset';
import { d1PersistOf, WORKER_CONFIG, type IdSample } from './state';

const CUSTOMERS_PER_CHUNK = 1000;
/** Ids kept per kind for the routes to pick from: plenty to never repeat a write within a second. */
const SAMPLE_SIZE = 20_000;

/** The `database_id` of wrangler.toml's D1 database: the file name under the persistence directory follows from it. */
export function workerDatabaseId(): string {
  const id = /^\s*database_id\s*=\s*"([^"]+)"/m.exec(readFileSync(WORKER_CONFIG, 'utf8'))?.[1];
  if (!id) throw new Error('wrangler.toml has no database_id');
  return id;
}

const ID_KINDS = ['customerIds', 'earnerIds', 'transactionIds', 'redemptionIds'] as const satisfies readonly (keyof IdSample)[];

/** A uniform random sample of everything offered to it (reservoir sampling). */
class Reservoir {
  readonly items: string[] = [];
  private seen = 0;
  constructor(private readonly random: () => number) {}

  offer(values: readonly string[]): void {
    for (const value of values) {
      this.seen += 1;
      if (this.items.length < SAMPLE_SIZE) this.items.push(value);
      else {
        const slot = Math.floor(this.random() * this.seen);
        if (slot < SAMPLE_SIZE) this.items[slot] = value;
      }
    }
  }
}

export type LoadedTenant = { sample: IdSample; largestCohort: { id: string; members: number } };

export type Loader = {
  load(plan: TenantPlan, label: string): Promise<LoadedTenant>;
  close(): Promise<void>;
};

export async function openLoader(persistTo: string, log: (message: string) => void): Promise<Loader> {
  const mf = new Miniflare({
    modules: true,
    script: 'export default { fetch: () => new Response(null, { status: 404 }) }',
    d1Databases: { DB: workerDatabaseId() },
    d1Persist: d1PersistOf(persistTo),
  });
  const db = await mf.getD1Database('DB');

  async function load(plan: TenantPlan, label: string): Promise<LoadedTenant> {
    const started = Date.now();
    const kinds: Record<keyof IdSample, Reservoir> = {
      customerIds: new Reservoir(plan.random),
      earnerIds: new Reservoir(plan.random),
      transactionIds: new Reservoir(plan.random),
      redemptionIds: new Reservoir(plan.random),
    };
    let done = 0;
    let lastReport = 0;
    for (const chunk of tenantChunks(plan, CUSTOMERS_PER_CHUNK)) {
      await db.batch(chunk.statements.map((statement) => db.prepare(statement)));
      for (const kind of ID_KINDS) kinds[kind].offer(chunk[kind]);
      done += chunk.customerIds.length;
      if (Date.now() - lastReport > 5000 || done === plan.customers) {
        lastReport = Date.now();
        const seconds = (Date.now() - started) / 1000;
        log(`${label}: ${done.toLocaleString('en')} / ${plan.customers.toLocaleString('en')} customers loaded (${seconds.toFixed(0)} s, ${Math.round(done / seconds)}/s)`);
      }
    }
    const cohort = await db
      .prepare('SELECT cohort_id AS id, count(*) AS members FROM cohort_memberships WHERE tenant_id = ? GROUP BY cohort_id ORDER BY members DESC LIMIT 1')
      .bind(plan.tenantId)
      .first<{ id: string; members: number }>();
    if (!cohort) throw new Error(`${label}: no cohort has members after the load`);
    return {
      sample: { customerIds: kinds.customerIds.items, earnerIds: kinds.earnerIds.items, transactionIds: kinds.transactionIds.items, redemptionIds: kinds.redemptionIds.items },
      largestCohort: cohort,
    };
  }

  return { load, close: () => mf.dispose() };
}
