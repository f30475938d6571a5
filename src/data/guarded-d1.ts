/**
 * A D1 binding whose first round trip also runs a guard statement, in the same batch (one D1
 * transaction). The gateway uses it to confirm its API key against D1 without an extra round
 * trip: if the guard fails, the whole batch, writes included, is rolled back.
 *
 * Results of the first statement come from `batch()`, which returns rows as objects; `raw()` is
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
  #pending = true;
  readonly binding: D1Database;

  constructor(
    private readonly d1: D1Database,
    private readonly guard: Guard,
  ) {
    this.binding = this.#wrapDatabase();
  }

  /** True until a round trip has carried the guard. */
  get pending(): boolean {
    return this.#pending;
  }

  /** Runs the guard alone (for a request that made no query of its own). */
  async confirm(): Promise<void> {
    if (this.#pending) await this.#batch([]);
  }

  async #batch(statements: D1PreparedStatement[]): Promise<D1Result[]> {
    this.#pending = false;
    try {
      const [, ...results] = await this.d1.batch([this.guard.statement, ...statements]);
      return results;
    } catch (error) {
      throw this.guard.rejection(error) ?? error;
    }
  }

  async #first(statement: D1PreparedStatement): Promise<D1Result<Record<string, unknown>>> {
    const [result] = await this.#batch([statement]);
    if (!result) throw new Error('D1 batch returned no result');
    return result as D1Result<Record<string, unknown>>;
  }

  #wrapStatement(real: D1PreparedStatement): Wrapped {
    const wrapped = {
      [REAL]: real,
      bind: (...values: unknown[]) => this.#wrapStatement(real.bind(...values)),
      first: async (column?: string) => {
        if (!this.#pending) return column === undefined ? real.first() : real.first(column);
        const row = (await this.#first(real)).results[0] ?? null;
        return column === undefined || row === null ? row : (row[column] ?? null);
      },
      run: async () => (this.#pending ? this.#first(real) : real.run()),
      all: async () => (this.#pending ? this.#first(real) : real.all()),
      raw: async (options?: { columnNames?: boolean }) => {
        if (!this.#pending) return options?.columnNames ? real.raw({ columnNames: true }) : real.raw();
        const rows = (await this.#first(real)).results;
        const values = rows.map((row) => Object.values(row));
        return options?.columnNames ? [Object.keys(rows[0] ?? {}), ...values] : values;
      },
    };
    return wrapped as unknown as Wrapped;
  }

  #wrapDatabase(): D1Database {
    const unwrap = (statement: D1PreparedStatement) => (statement as Partial<Wrapped>)[REAL] ?? statement;
    const database = {
      prepare: (query: string) => this.#wrapStatement(this.d1.prepare(query)),
      batch: (statements: D1PreparedStatement[]) =>
        this.#pending ? this.#batch(statements.map(unwrap)) : this.d1.batch(statements.map(unwrap)),
      exec: (query: string) => this.d1.exec(query),
      withSession: (constraint?: string) => this.d1.withSession(constraint),
      dump: () => this.d1.dump(),
    };
    return database as unknown as D1Database;
  }
}
