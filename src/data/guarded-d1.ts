/**
 * A D1 binding whose first round trip also runs a guard, first in the same batch (one D1
 * transaction). The gateway uses it to confirm its API key against D1 without an extra round trip,
 * the portal to confirm a remembered membership (src/data/member-cache.ts).
 * The guard takes the form the batch needs:
 *
 * - a batch that may write carries `guard.rollback`, which fails the batch unless the caller may
 *   proceed, so nothing of it is committed;
 * - a batch that only reads (every statement a SELECT) carries `guard.check`, a SELECT whose answer
 *   is checked here: when it refuses, the batch's results are discarded and the caller gets the
 *   refusal. Nothing was written, and the batch stays a read (no write transaction, so it may later
 *   be served by a D1 read replica).
 *
 * - Calls made while the guard is in flight wait for it, so parallel queries of a handler cannot
 *   run (and write) before the caller is confirmed.
 * - The guard is the first statement, so any other failure of its batch means SQLite got past it,
 *   but the batch was rolled back; the guard stays unconfirmed and rides the next round trip.
 * - Once refused, every further call fails with the same refusal.
 *
 * Results of a single statement come from `batch()`, which returns rows as objects; `raw()` is
 * rebuilt from them exactly as Drizzle does for its own batches.
 */
const REAL = Symbol('real D1 statement');

type Wrapped = D1PreparedStatement & { [REAL]: D1PreparedStatement };

export type Guard = {
  /** For a batch that may write: fails the batch (rolling it back) unless the caller may proceed. */
  rollback: D1PreparedStatement;
  /** For a batch that only reads: a SELECT of one row whose `allowed` column is 1 when the caller may proceed. */
  check: D1PreparedStatement;
  /** Whether a D1 error is `rollback` refusing (other errors pass through unchanged). */
  refusedBy: (error: unknown) => boolean;
  /** What the caller gets once either form refused. */
  refusal: () => Error;
};

/**
 * Statements that cannot write. SQLite only writes through INSERT, UPDATE, DELETE or REPLACE (a
 * WITH clause may lead one, CTE bodies cannot), DDL and PRAGMA; anything unsure counts as a write
 * and takes the rollback guard, which is always safe.
 */
export function isReadOnlySql(sql: string): boolean {
  if (/^\s*(select|values)\b/i.test(sql)) return true;
  return /^\s*with\b/i.test(sql) && !/\b(insert|update|delete|replace)\b/i.test(sql);
}

export class GuardedD1 {
  #confirmed = false;
  #rejection: Error | undefined;
  #inFlight: Promise<unknown> | undefined;
  /** The SQL of every statement prepared through the binding, to choose the guard's form. */
  readonly #sqlOf = new WeakMap<D1PreparedStatement, string>();
  readonly binding: D1Database;

  constructor(
    private readonly d1: D1Database,
    private readonly guard: Guard,
  ) {
    this.binding = this.#wrapDatabase();
  }

  /** True once a round trip has carried the guard and D1 accepted it. */
  get confirmed(): boolean {
    return this.#confirmed;
  }

  /** True once the guard refused: every call since has failed with its refusal. */
  get refused(): boolean {
    return this.#rejection !== undefined;
  }

  /** Runs the guard (the read form) alone unless a round trip already confirmed it; throws its refusal. */
  async confirm(): Promise<void> {
    await this.#batch([]);
  }

  #readsOnly(statements: D1PreparedStatement[]): boolean {
    return statements.every((statement) => isReadOnlySql(this.#sqlOf.get(statement) ?? ''));
  }

  /** `statements` in one round trip, behind the guard until it is confirmed. */
  async #batch(statements: D1PreparedStatement[]): Promise<D1Result[]> {
    while (this.#inFlight) await this.#inFlight.catch(() => undefined);
    if (this.#rejection) throw this.#rejection;
    if (this.#confirmed) return statements.length ? this.d1.batch(statements) : [];
    const readsOnly = this.#readsOnly(statements);
    const carrier = this.d1.batch([readsOnly ? this.guard.check : this.guard.rollback, ...statements]);
    this.#inFlight = carrier;
    let guardResult: D1Result | undefined;
    let results: D1Result[];
    try {
      [guardResult, ...results] = await carrier;
    } catch (error) {
      if (this.guard.refusedBy(error)) this.#rejection = this.guard.refusal();
      throw this.#rejection ?? error;
    } finally {
      this.#inFlight = undefined;
    }
    if (readsOnly && (guardResult?.results[0] as { allowed?: unknown } | undefined)?.allowed !== 1) {
      this.#rejection = this.guard.refusal();
      throw this.#rejection;
    }
    this.#confirmed = true;
    return results;
  }

  /** The statement's result through the guard's batch, or undefined when the guard is confirmed. */
  async #throughGuard(statement: D1PreparedStatement): Promise<D1Result<Record<string, unknown>> | undefined> {
    while (this.#inFlight) await this.#inFlight.catch(() => undefined);
    if (this.#confirmed) return undefined;
    const [result] = await this.#batch([statement]);
    if (!result) throw new Error('D1 batch returned no result');
    return result as D1Result<Record<string, unknown>>;
  }

  #wrapStatement(real: D1PreparedStatement, sql: string): Wrapped {
    this.#sqlOf.set(real, sql);
    const wrapped = {
      [REAL]: real,
      bind: (...values: unknown[]) => this.#wrapStatement(real.bind(...values), sql),
      first: async (column?: string) => {
        const result = await this.#throughGuard(real);
        if (!result) return column === undefined ? real.first() : real.first(column);
        const row = result.results[0] ?? null;
        return column === undefined || row === null ? row : (row[column] ?? null);
      },
      run: async () => (await this.#throughGuard(real)) ?? real.run(),
      all: async () => (await this.#throughGuard(real)) ?? real.all(),
      raw: async (options?: { columnNames?: boolean }) => {
        const result = await this.#throughGuard(real);
        if (!result) return options?.columnNames ? real.raw({ columnNames: true }) : real.raw();
        const values = result.results.map((row) => Object.values(row));
        return options?.columnNames ? [Object.keys(result.results[0] ?? {}), ...values] : values;
      },
    };
    return wrapped as unknown as Wrapped;
  }

  #wrapDatabase(): D1Database {
    const unwrap = (statement: D1PreparedStatement) => (statement as Partial<Wrapped>)[REAL] ?? statement;
    const database = {
      prepare: (query: string) => this.#wrapStatement(this.d1.prepare(query), query),
      batch: (statements: D1PreparedStatement[]) => this.#batch(statements.map(unwrap)),
      exec: (query: string) => this.d1.exec(query),
      withSession: (constraint?: string) => this.d1.withSession(constraint),
      dump: () => this.d1.dump(),
    };
    return database as unknown as D1Database;
  }
}
