import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import worker from '../../src/index';
import { callWorker, type JsonResponse } from '../support/http';
import { sessionsThrough } from '../support/sessions';
import { shardBindings } from '../support/shards';

/**
 * Instrumentation of the real D1 binding, not a mock: every statement runs on the test database as
 * usual, and the wrapper adds up what D1 reports about it (`meta.rows_read`, `meta.rows_written`,
 * which include the work of the triggers a statement fires). Lets a test state what a request
 * costs the database in statements and rows rather than in time.
 */

/** One round trip: the database it went to, the SQL of its statements and the rows they read and wrote. */
export type D1Trip = { database: Counted; sql: string[]; params: unknown[][]; rowsRead: number; rowsWritten: number };
/**
 * What a piece of work cost D1, the directory's and the shard's round trips together (`trips` in
 * the order they came back). `concurrent`: round trips that began while another was in flight,
 * so they added no wait of their own (a portal read's membership check beside its route).
 */
export type D1Cost = { roundTrips: number; concurrent: number; statements: number; rowsRead: number; rowsWritten: number; trips: D1Trip[] };
type Counted = 'shard' | 'directory';

type Meta = { rows_read?: number; rows_written?: number };

/** The real binding, counting what each round trip costs into `cost`. */
export function countingD1(real: D1Database, cost: D1Cost, database: Counted = 'shard'): D1Database {
  const realOf = new WeakMap<object, { statement: D1PreparedStatement; sql: string; params: unknown[] }>();
  const inFlight = (cost as D1Cost & { [IN_FLIGHT]?: number });
  /** Runs one round trip, noting whether another was in flight when it began. */
  const trip = async <T>(run: () => Promise<T>): Promise<T> => {
    if ((inFlight[IN_FLIGHT] ?? 0) > 0) cost.concurrent += 1;
    inFlight[IN_FLIGHT] = (inFlight[IN_FLIGHT] ?? 0) + 1;
    try {
      return await run();
    } finally {
      inFlight[IN_FLIGHT] = (inFlight[IN_FLIGHT] ?? 1) - 1;
    }
  };
  const add = (sql: string[], params: unknown[][], metas: Meta[]) => {
    const trip = { database, sql, params, rowsRead: 0, rowsWritten: 0 };
    for (const meta of metas) {
      trip.rowsRead += meta.rows_read ?? 0;
      trip.rowsWritten += meta.rows_written ?? 0;
    }
    cost.trips.push(trip);
    cost.roundTrips += 1;
    cost.statements += metas.length;
    cost.rowsRead += trip.rowsRead;
    cost.rowsWritten += trip.rowsWritten;
  };
  const wrap = (statement: D1PreparedStatement, sql: string, params: unknown[] = []): D1PreparedStatement => {
    const all = async <T>() => {
      const result = await trip(() => statement.all<T>());
      add([sql], [params], [result.meta]);
      return result;
    };
    const wrapped = {
      bind: (...values: unknown[]) => wrap(statement.bind(...values), sql, values),
      run: async () => {
        const result = await trip(() => statement.run());
        add([sql], [params], [result.meta]);
        return result;
      },
      all,
      first: async (column?: string) => {
        const [row] = (await all<Record<string, unknown>>()).results;
        return column === undefined ? (row ?? null) : (row?.[column] ?? null);
      },
      // raw() carries no meta: read as objects (what D1 batches answer, and Drizzle maps them back the same way).
      raw: async () => (await all<Record<string, unknown>>()).results.map((row) => Object.values(row)),
    } as unknown as D1PreparedStatement;
    realOf.set(wrapped, { statement, sql, params });
    return wrapped;
  };
  return {
    prepare: (sql: string) => wrap(real.prepare(sql), sql),
    batch: async <T>(statements: D1PreparedStatement[]) => {
      const entries = statements.map((s) => realOf.get(s) ?? { statement: s, sql: '', params: [] });
      const results = await trip(() => real.batch<T>(entries.map((entry) => entry.statement)));
      add(
        entries.map((entry) => entry.sql),
        entries.map((entry) => entry.params),
        results.map((result) => result.meta),
      );
      return results;
    },
    exec: (query: string) => real.exec(query),
    dump: () => real.dump(),
    withSession: sessionsThrough(real, (binding) => countingD1(binding, cost, database)),
  } as unknown as D1Database;
}

export const newCost = (): D1Cost => ({ roundTrips: 0, concurrent: 0, statements: 0, rowsRead: 0, rowsWritten: 0, trips: [] });
const IN_FLIGHT = Symbol('round trips in flight');

/** The Worker's env with the directory and every shard counting into `cost`. */
export const countingEnv = (cost: D1Cost) => ({
  ...env,
  DB: countingD1(env.DB, cost, 'directory'),
  ...Object.fromEntries(shardBindings().map(({ name, db }) => [name, countingD1(db, cost)])),
});

/** Sends `request` through the whole Worker with the counting bindings: the response (as `call` answers it) and what it cost. */
export async function measured(request: Request): Promise<{ response: JsonResponse; cost: D1Cost }> {
  const cost = newCost();
  const response = await callWorker(request, countingEnv(cost));
  return { response, cost };
}


/** Runs the Worker's `scheduled` handler for `cron` with the counting binding: what the run cost. */
export async function measuredCron(cron: string): Promise<D1Cost> {
  const cost = newCost();
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron, scheduledTime: Date.now() }), countingEnv(cost), ctx);
  await waitOnExecutionContext(ctx);
  return cost;
}
