import { ridingStatement, wrappedDatabase } from './riding-statements';

/**
 * A D1 binding whose first round trip is led by statements the handler never wrote.
 *
 * THE SQL A HANDLER WRITES IS NOT EXACTLY WHAT RUNS: on a request whose `db` sits on a LeadingD1,
 * the handler's first D1 round trip is a batch that starts with the leader's statements (one D1
 * transaction), and its results come back without theirs. Two leaders use it:
 *
 * - the API key status guard of a gateway request whose key came from a cache
 *   (middleware/gateway-auth.ts; docs/GATEWAY-AUTH.md "Confirmation in D1");
 * - the idempotency claim of a gateway write, which wraps the binding the guard made, so the guard
 *   leads and the claim follows (middleware/idempotency.ts, data/idempotency.ts claimStatements;
 *   docs/decisions/0060-write-round-trips.md).
 *
 * So make a handler's first D1 call the one that matters (ideally one `db.batch`): it costs no
 * round trip of its own for the guard or the claim. The leader takes the form the batch needs:
 *
 * - a batch that may write carries `leader.write`, which fails the batch unless the request may go
 *   on, so nothing of it is committed (SQLite stops at the failing statement);
 * - a batch that only reads (every statement a SELECT) carries `leader.read` when the leader has
 *   one: a SELECT whose answer is checked here; when it refuses, the batch's results are discarded
 *   and the caller gets the refusal. Nothing was written, and the batch stays a read (no write
 *   transaction, so it may later be served by a D1 read replica). A leader without a read form
 *   (the claim) leads with `write` whatever the batch.
 *
 * - Calls made while the leader is in flight wait for it, so parallel queries of a handler cannot
 *   run (and write) before the request is confirmed.
 * - The leader goes first, so any other failure of its batch means SQLite got past it, but the
 *   batch was rolled back; the leader stays pending and rides the next round trip.
 * - A single statement (`first`, `run`, `all`, `raw`) rides the leading batch too; its result is
 *   rebuilt from the batch's rows (objects) exactly as Drizzle does for its own batches.
 * - Once refused, every further call fails with the same refusal.
 */
export type Leader = {
  /** For a batch that may write: statements that fail it (rolling it back) unless the request may go on. */
  write: readonly D1PreparedStatement[];
  /** For a batch that only reads, if the leader has such a form: a SELECT of one row whose `allowed` column is 1 when the request may go on. */
  read?: D1PreparedStatement;
  /** Whether a D1 error is `write` refusing (other errors pass through unchanged). */
  refusedBy: (error: unknown) => boolean;
  /** What the caller gets once either form refused; called once, its error thrown by every later call. */
  refusal: () => Error;
};

/** `confirmed` once a round trip carried the leader and D1 accepted it. */
export type LeaderState = 'pending' | 'confirmed' | 'refused';

/** Drizzle builders (and reusable statements) as D1 statements of `d1`, for a leader's `write`. */
export function preparedOn(d1: D1Database, statements: readonly { toSQL(): { sql: string; params: unknown[] } }[]): D1PreparedStatement[] {
  return statements.map((statement) => {
    const { sql, params } = statement.toSQL();
    return d1.prepare(sql).bind(...params);
  });
}

/**
 * Statements that cannot write. SQLite only writes through INSERT, UPDATE, DELETE or REPLACE (a
 * WITH clause may lead one, CTE bodies cannot), DDL and PRAGMA; anything unsure counts as a write
 * and takes the write form, which is always safe.
 */
export function isReadOnlySql(sql: string): boolean {
  if (/^\s*(select|values)\b/i.test(sql)) return true;
  return /^\s*with\b/i.test(sql) && !/\b(insert|update|delete|replace)\b/i.test(sql);
}

export class LeadingD1 {
  #state: LeaderState = 'pending';
  #refusal: Error | undefined;
  #inFlight: Promise<unknown> | undefined;
  /** The SQL of every statement prepared through the binding, to choose the leader's form. */
  readonly #sqlOf = new WeakMap<D1PreparedStatement, string>();
  /** The wrapped binding: give it to `createDatabase`. */
  readonly binding: D1Database;

  constructor(
    private readonly d1: D1Database,
    private readonly leader: Leader,
  ) {
    this.binding = this.#wrapDatabase();
  }

  get state(): LeaderState {
    return this.#state;
  }

  /** Runs the leader alone (its read form, if it has one) unless a round trip already confirmed it; throws its refusal. */
  async confirm(): Promise<void> {
    await this.#batch([]);
  }

  #readsOnly(statements: D1PreparedStatement[]): boolean {
    return statements.every((statement) => isReadOnlySql(this.#sqlOf.get(statement) ?? ''));
  }

  #refuse(): Error {
    this.#state = 'refused';
    this.#refusal ??= this.leader.refusal();
    return this.#refusal;
  }

  /** `statements` in one round trip, led by the leader until it is confirmed. */
  async #batch(statements: D1PreparedStatement[]): Promise<D1Result[]> {
    while (this.#inFlight) await this.#inFlight.catch(() => undefined);
    if (this.#refusal) throw this.#refusal;
    if (this.#state === 'confirmed') return statements.length ? this.d1.batch(statements) : [];
    const read = this.leader.read && this.#readsOnly(statements) ? this.leader.read : undefined;
    const leading = read ? [read] : this.leader.write;
    const carrier = this.d1.batch([...leading, ...statements]);
    this.#inFlight = carrier;
    let results: D1Result[];
    try {
      results = await carrier;
    } catch (error) {
      throw this.leader.refusedBy(error) ? this.#refuse() : error;
    } finally {
      this.#inFlight = undefined;
    }
    if (read && (results[0]?.results[0] as { allowed?: unknown } | undefined)?.allowed !== 1) throw this.#refuse();
    this.#state = 'confirmed';
    return results.slice(leading.length);
  }

  /** The statement's result through the leading batch, or undefined when the leader is confirmed. */
  async #throughLeader(statement: D1PreparedStatement): Promise<D1Result<Record<string, unknown>> | undefined> {
    while (this.#inFlight) await this.#inFlight.catch(() => undefined);
    if (this.#state === 'confirmed') return undefined;
    const [result] = await this.#batch([statement]);
    if (!result) throw new Error('D1 batch returned no result');
    return result as D1Result<Record<string, unknown>>;
  }

  #wrapDatabase(): D1Database {
    const ride = (statement: D1PreparedStatement) => this.#throughLeader(statement);
    return wrappedDatabase(
      this.d1,
      (query) => ridingStatement(this.d1.prepare(query), ride, (statement) => this.#sqlOf.set(statement, query)),
      (statements) => this.#batch(statements),
    );
  }
}
