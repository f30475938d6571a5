/**
 * A D1 binding whose first round trip also runs a guard statement, first in the same batch (one D1
 * transaction). The gateway uses it to confirm its API key against D1 without an extra round
 * trip: if the guard fails, the whole batch, writes included, is rolled back.
 *
 * - Calls made while the guard is in flight wait for it, so parallel queries of a handler cannot
 *   run (and write) before the key is confirmed.
 * - The guard is the first statement, so any other failure of its batch means SQLite got past it,
 *   but the batch was rolled back; the guard stays unconfirmed and rides the next round trip.
 * - Once rejected, every further call fails with the same rejection.
 *
 * Results of a single statement come from `batch()`, which returns rows as objects; `raw()` is
 * rebuilt from them exactly as Drizzle does for its own batches.
 */
const REAL = Symbol('real D1 statement');

type Wrapped = D1PreparedStatement & { [REAL]: D1PreparedStatement };

export type Guard = {
  statement: D1PreparedStatement;
  /** Maps the D1 error of a failed guard to the error the caller should see; other errors pass. */
  rejection: (error: unknown) => Error | undefined;
};

export class GuardedD1 {
  #confirmed = false;
  #rejection: Error | undefined;
  #inFlight: Promise<unknown> | undefined;
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

  /** Runs the guard alone unless a round trip already confirmed it; throws its rejection. */
  async confirm(): Promise<void> {
    await this.#batch([]);
  }

  /** `statements` in one round trip, behind the guard until it is confirmed. */
  async #batch(statements: D1PreparedStatement[]): Promise<D1Result[]> {
    while (this.#inFlight) await this.#inFlight.catch(() => undefined);
    if (this.#rejection) throw this.#rejection;
    if (this.#confirmed) return statements.length ? this.d1.batch(statements) : [];
    const carrier = this.d1.batch([this.guard.statement, ...statements]);
    this.#inFlight = carrier;
    try {
      const [, ...results] = await carrier;
      this.#confirmed = true;
      return results;
    } catch (error) {
      this.#rejection = this.guard.rejection(error);
      throw this.#rejection ?? error;
    } finally {
      this.#inFlight = undefined;
    }
  }

  /** The statement's result through the guard's batch, or undefined when the guard is confirmed. */
  async #throughGuard(statement: D1PreparedStatement): Promise<D1Result<Record<string, unknown>> | undefined> {
    while (this.#inFlight) await this.#inFlight.catch(() => undefined);
    if (this.#confirmed) return undefined;
    const [result] = await this.#batch([statement]);
    if (!result) throw new Error('D1 batch returned no result');
    return result as D1Result<Record<string, unknown>>;
  }

  #wrapStatement(real: D1PreparedStatement): Wrapped {
    const wrapped = {
      [REAL]: real,
      bind: (...values: unknown[]) => this.#wrapStatement(real.bind(...values)),
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
      prepare: (query: string) => this.#wrapStatement(this.d1.prepare(query)),
      batch: (statements: D1PreparedStatement[]) => this.#batch(statements.map(unwrap)),
      exec: (query: string) => this.d1.exec(query),
      withSession: (constraint?: string) => this.d1.withSession(constraint),
      dump: () => this.d1.dump(),
    };
    return database as unknown as D1Database;
  }
}
