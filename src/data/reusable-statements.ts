import { is, Param, Placeholder, sql, type Query } from 'drizzle-orm';
import type { Database } from '../db/client';

/**
 * Statements whose SQL is built once per isolate. Drizzle renders a query's SQL from its builder on
 * every call, walking every column and condition; on the hot routes that was 30-50% of the
 * Worker's CPU (a profile under load, docs/PERFORMANCE.md). A reusable statement is defined once,
 * at module level, with a placeholder for every value (`$.name`); its SQL and result mapping are
 * built on first use and each later call only binds the values.
 *
 * Defined at module level, a statement cannot capture a request's values by mistake: anything that
 * changes the SQL's shape is either a placeholder or a statement of its own.
 */

/** A placeholder per value, typed like the value. */
export type Slots<V> = { readonly [K in keyof V]: Placeholder<K & string, V[K]> };

/** A value, or its placeholder in a reusable statement's builder. */
export type Bound<T> = T | Placeholder<string, T>;

/** Values bound to a statement: null, never undefined (an undefined cannot be bound). */
type Values = Record<string, unknown>;

type Prepared = { getQuery(): Query; mapResult(response: unknown, isFromBatch?: boolean): unknown };
type Buildable = { prepare(): Prepared };
type Shape = { sql: string; params: unknown[]; mapResult: Prepared['mapResult'] };

const slotProxy = new Proxy({}, { get: (_target, name) => sql.placeholder(String(name)) });

function valueOf(values: Values, name: string): unknown {
  const value = values[name];
  if (value === undefined) throw new Error(`reusable statement: no value for "${name}"`);
  return value;
}

/** Fills placeholders as Drizzle fills inline values (a null stays null, not the column's encoding of it). */
function bindValues(params: readonly unknown[], values: Values): unknown[] {
  return params.map((param) => {
    if (is(param, Placeholder)) return valueOf(values, param.name);
    if (is(param, Param) && is(param.value, Placeholder)) {
      const value = valueOf(values, param.value.name);
      return value === null ? null : param.encoder.mapToDriverValue(value);
    }
    return param;
  });
}

/**
 * What Drizzle's `db.batch` and our claim riders use of a query builder: `_prepare()` (Drizzle's
 * batch protocol, which D1's session batch calls), `toSQL()`, and awaiting it alone.
 */
class BoundStatement {
  constructor(
    private readonly db: Database,
    private readonly shape: Shape,
    private readonly params: unknown[],
  ) {}

  toSQL(): Query {
    return { sql: this.shape.sql, params: this.params };
  }

  _prepare() {
    return { stmt: this.db.$client.prepare(this.shape.sql), getQuery: () => this.toSQL(), mapResult: this.shape.mapResult };
  }

  /** Alone, it runs as a batch of one, mapped exactly as in any batch. */
  then<R1, R2 = never>(onFulfilled?: (value: unknown) => R1 | PromiseLike<R1>, onRejected?: (reason: unknown) => R2 | PromiseLike<R2>) {
    return this.db.batch([this as unknown as Parameters<Database['batch']>[0][0]]).then(([result]) => result).then(onFulfilled, onRejected);
  }
}

/** A raw query (`db.all(sql)`, `db.run(sql)`): Drizzle batches one only without parameters, so it goes through a bound statement. */
type Raw = { getQuery(): Query; mapResult(response: unknown, isFromBatch?: boolean): unknown };

function shapeOf(builder: Buildable | Raw): Shape {
  if (!('prepare' in builder)) {
    const { sql: text, params } = builder.getQuery();
    return { sql: text, params, mapResult: builder.mapResult.bind(builder) };
  }
  const prepared = builder.prepare();
  const { sql: text, params } = prepared.getQuery();
  return { sql: text, params, mapResult: prepared.mapResult.bind(prepared) };
}

// Typed as the builder it stands for: Drizzle's batch reads only the members BoundStatement has.
const bound = <T>(db: Database, shape: Shape, values: Values) => new BoundStatement(db, shape, bindValues(shape.params, values)) as unknown as T;

/**
 * A statement built once: `build` gets the first caller's client and a placeholder per value, and
 * must use nothing else that varies. Returns a function giving the statement for `values`, typed as
 * the builder (usable in `db.batch`, as a claim rider, or awaited alone).
 */
export function reusable<V extends Values, T extends Buildable | Raw>(build: (db: Database, $: Slots<V>) => T): (db: Database, values: V) => T {
  let shape: Shape | undefined;
  return (db, values) => {
    shape ??= shapeOf(build(db, slotProxy as Slots<V>));
    return bound<T>(db, shape, values);
  };
}

/** `reusable` for a fixed list of statements that share their values (spread it into a batch). */
export function reusableList<V extends Values, T extends readonly (Buildable | Raw)[]>(build: (db: Database, $: Slots<V>) => T): (db: Database, values: V) => T {
  let shapes: Shape[] | undefined;
  return (db, values) => {
    shapes ??= build(db, slotProxy as Slots<V>).map(shapeOf);
    return shapes.map((shape) => bound(db, shape, values)) as unknown as T;
  };
}

