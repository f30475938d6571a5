/** What ClaimingD1 puts at the head of the first round trip, and how it tells and reports a conflict. */
export type ClaimRider = {
  statements: readonly { toSQL(): { sql: string; params: unknown[] } }[];
  isConflict: (error: unknown) => boolean;
  conflict: () => Error;
};

export type ClaimState = 'pending' | 'claimed' | 'conflict';

class ClaimedStatement implements D1PreparedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly claimed: () => Promise<unknown>,
  ) {}

  bind(...values: unknown[]): D1PreparedStatement {
    return new ClaimedStatement(this.inner.bind(...values), this.claimed);
  }

  first<T = unknown>(colName: string): Promise<T | null>;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  async first<T>(colName?: string): Promise<T | null> {
    await this.claimed();
    return colName === undefined ? this.inner.first<T>() : this.inner.first<T>(colName);
  }

  async run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    await this.claimed();
    return this.inner.run<T>();
  }

  async all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    await this.claimed();
    return this.inner.all<T>();
  }

  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>;
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>;
  async raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<[string[], ...T[]] | T[]> {
    await this.claimed();
    return options?.columnNames ? this.inner.raw<T>({ columnNames: true }) : this.inner.raw<T>();
  }
}

/**
 * A D1 binding whose first successful round trip also claims the request's idempotency key: the
 * claim statements lead that batch (one D1 transaction), so a write commits only together with its
 * claim, and a duplicate's write is rolled back with its refused claim. On the happy path the claim
 * costs no round trip of its own (data/idempotency.ts claimStatements; docs/DECISIONS.md "Write
 * round trips").
 *
 * - Until a round trip succeeds, every round trip carries the claim: a batch that failed for
 *   another reason (a guard of the handler's) was rolled back with it.
 * - A single statement (not a batch) runs once the claim is made, by a batch of the claim alone
 *   if needed, so nothing reaches D1 before the claim.
 * - Calls made while the claim is in flight wait for it.
 * - A conflict (`claim.isConflict`) fails that call and every later one with `claim.conflict()`:
 *   the caller then works out what holds the key without this binding.
 *
 * Wraps the request's binding as given (the gateway's GuardedD1, whose key guard then leads).
 */
export class ClaimingD1 implements D1Database {
  #state: ClaimState = 'pending';
  #inFlight: Promise<unknown> | undefined;
  readonly #leading: D1PreparedStatement[];

  constructor(
    private readonly d1: D1Database,
    private readonly claim: ClaimRider,
  ) {
    this.#leading = claim.statements.map((statement) => {
      const { sql, params } = statement.toSQL();
      return d1.prepare(sql).bind(...params);
    });
  }

  /** `claimed` once a round trip carried the claim and D1 accepted it. */
  get state(): ClaimState {
    return this.#state;
  }

  prepare(query: string): D1PreparedStatement {
    return new ClaimedStatement(this.d1.prepare(query), () => this.#batch([]));
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return this.#batch<T>(statements.map((statement) => (statement instanceof ClaimedStatement ? statement.inner : statement)));
  }

  // Not used by request handlers; passed through like GuardedD1 does.
  exec(query: string): Promise<D1ExecResult> {
    return this.d1.exec(query);
  }

  withSession(constraintOrBookmark?: D1SessionBookmark | D1SessionConstraint): D1DatabaseSession {
    return this.d1.withSession(constraintOrBookmark);
  }

  dump(): Promise<ArrayBuffer> {
    return this.d1.dump();
  }

  /** `statements` in one round trip, led by the claim until it is made. */
  async #batch<T>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    while (this.#inFlight) await this.#inFlight.catch(() => undefined);
    if (this.#state === 'conflict') throw this.claim.conflict();
    if (this.#state === 'claimed') return statements.length > 0 ? this.d1.batch<T>(statements) : [];
    const carrier = this.d1.batch<T>([...this.#leading, ...statements]);
    this.#inFlight = carrier;
    try {
      const results = await carrier;
      this.#state = 'claimed';
      return results.slice(this.#leading.length);
    } catch (error) {
      if (!this.claim.isConflict(error)) throw error;
      this.#state = 'conflict';
      throw this.claim.conflict();
    } finally {
      this.#inFlight = undefined;
    }
  }
}
