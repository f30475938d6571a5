/**
 * Statements of a wrapped D1 binding whose single calls (`first`, `run`, `all`, `raw`) may ride a
 * batch the wrapper builds around them (data/leading-d1.ts, data/audited-d1.ts): the result is
 * rebuilt from the batch's rows (objects) exactly as Drizzle does for its own batches.
 */
const REAL = Symbol('the statement this binding wraps');

type Wrapped = D1PreparedStatement & { [REAL]: D1PreparedStatement };

/** The statement's result through the wrapper's batch, or undefined to run it as it is. */
export type Ride = (statement: D1PreparedStatement) => Promise<D1Result<Record<string, unknown>> | undefined>;

/** The statement of the binding below (a wrapper over another one's binding unwraps its own layer only). */
export const unwrapped = (statement: D1PreparedStatement) => (statement as Partial<Wrapped>)[REAL] ?? statement;

/** `real`, whose single calls go through `ride`; `bind` keeps it wrapped, and `onPrepared` sees every bound form (with its SQL). */
export function ridingStatement(real: D1PreparedStatement, ride: Ride, onPrepared: (statement: D1PreparedStatement) => void = () => undefined): D1PreparedStatement {
  onPrepared(real);
  const wrapped = {
    [REAL]: real,
    bind: (...values: unknown[]) => ridingStatement(real.bind(...values), ride, onPrepared),
    first: async (column?: string) => {
      const result = await ride(real);
      if (!result) return column === undefined ? real.first() : real.first(column);
      const row = result.results[0] ?? null;
      return column === undefined || row === null ? row : (row[column] ?? null);
    },
    run: async () => (await ride(real)) ?? real.run(),
    all: async () => (await ride(real)) ?? real.all(),
    raw: async (options?: { columnNames?: boolean }) => {
      const result = await ride(real);
      if (!result) return options?.columnNames ? real.raw({ columnNames: true }) : real.raw();
      const values = result.results.map((row) => Object.values(row));
      return options?.columnNames ? [Object.keys(result.results[0] ?? {}), ...values] : values;
    },
  };
  return wrapped as unknown as Wrapped;
}

/** A D1 binding built from a wrapper's `prepare` and `batch`; the rest passes through (request handlers do not use it). */
export function wrappedDatabase(d1: D1Database, prepare: (query: string) => D1PreparedStatement, batch: (statements: D1PreparedStatement[]) => Promise<D1Result[]>): D1Database {
  const database = {
    prepare,
    batch: (statements: D1PreparedStatement[]) => batch(statements.map(unwrapped)),
    exec: (query: string) => d1.exec(query),
    withSession: (constraint?: string) => d1.withSession(constraint),
    dump: () => d1.dump(),
  };
  return database as unknown as D1Database;
}
