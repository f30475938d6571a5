/**
 * Bulk load straight into the local D1 databases that `wrangler dev --persist-to` uses: Miniflare
 * (the engine wrangler itself runs on) opened on the same persistence directory and database ids,
 * and `db.batch()` of multi-row INSERTs, a few thousand rows per batch. A tenant's rows go to its
 * shard, the one the directory (DB) placed it in when the Worker created it. No native dependency;
 * the Worker is stopped meanwhile, so only one process has the SQLite files open. This is also
 * what `wrangler d1 execute --local --file` does, minus writing and re-parsing one huge SQL file
 * (bench/README.md has the comparison).
 */
import { Miniflare } from 'miniflare';
import { d1Layout } from '../../scripts/lib/d1-bindings';
import { tenantChunks, type TenantPlan } from './dataset';
import { d1PersistOf, WORKER_CONFIG, type IdSample } from './state';

const CUSTOMERS_PER_CHUNK = 1000;
/** Ids kept per kind for the routes to pick from: plenty to never repeat a write within a second. */
const SAMPLE_SIZE = 20_000;

/**
 * wrangler.toml's local D1 databases, binding → id (the directory's and every shard's): each file
 * name under the persistence directory follows from the id, as under `wrangler dev`.
 */
export function workerDatabaseIds(): Record<string, string> {
  const { directory, shards } = d1Layout(WORKER_CONFIG);
  return Object.fromEntries([directory, ...shards].map(({ binding, localId }) => [binding, localId]));
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

/** `shard`: the binding of the shard holding the tenant's rows (SHARD_<n>). */
export type LoadedTenant = { shard: string; sample: IdSample; largestCohort: { id: string; members: number } };

export type Loader = {
  load(plan: TenantPlan, label: string): Promise<LoadedTenant>;
  close(): Promise<void>;
};

export async function openLoader(persistTo: string, log: (message: string) => void): Promise<Loader> {
  const databases = workerDatabaseIds();
  const mf = new Miniflare({
    modules: true,
    script: 'export default { fetch: () => new Response(null, { status: 404 }) }',
    d1Databases: databases,
    d1Persist: d1PersistOf(persistTo),
  });
  const directory = await mf.getD1Database('DB');

  /** The binding of the tenant's shard, as the directory has it. */
  async function shardOf(tenantId: string, label: string): Promise<string> {
    const row = await directory.prepare('SELECT shard FROM tenants WHERE id = ?').bind(tenantId).first<{ shard: string }>();
    if (!row) throw new Error(`${label}: tenant ${tenantId} is not in the directory (DB)`);
    if (!(row.shard in databases) || row.shard === 'DB') throw new Error(`${label}: tenant ${tenantId} is placed in ${row.shard}, which wrangler.toml's SHARDS does not name`);
    return row.shard;
  }

  async function load(plan: TenantPlan, label: string): Promise<LoadedTenant> {
    const shard = await shardOf(plan.tenantId, label);
    const db = await mf.getD1Database(shard);
    log(`${label}: tenant ${plan.tenantId} lives in ${shard}`);
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
      shard,
      sample: { customerIds: kinds.customerIds.items, earnerIds: kinds.earnerIds.items, transactionIds: kinds.transactionIds.items, redemptionIds: kinds.redemptionIds.items },
      largestCohort: cohort,
    };
  }

  return { load, close: () => mf.dispose() };
}
