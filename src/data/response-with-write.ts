import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { idempotencyRecords } from '../db/schema';
import { claimRecord, keptOutcome, type Claim, type Outcome } from './idempotency';
import { reusable, type Slots } from './reusable-statements';

/**
 * Storing a gateway write's response as the outcome of its idempotency claim (data/idempotency.ts),
 * to be replayed byte for byte: after the handler (completeKey, the idempotency middleware), or
 * with the write, in the write's own batch, one D1 round trip fewer
 * (docs/decisions/0060-write-round-trips.md). This module owns both: the statement, the condition
 * under which the write's batch stores it, and what the middleware is told (`settle`).
 *
 * With the write: before its batch, the service renders the view it will answer from the values it
 * is about to write; `statement` stores that view's response (the route's envelope, serialized as
 * `c.json` writes it) in the request's claim if the completion's condition, placed after the write
 * in the same batch, confirms that the rows are the ones the view was rendered from. `settle` takes
 * the statement's RETURNING rows once the batch ran: the body stored is the answer (the middleware
 * answers it even if the handler's differs). A write that cannot render its view beforehand skips
 * it, and the middleware stores the response after the handler, as for any other write.
 */

/** A gateway write under way: its claim, and its response once the write's own batch stored it. */
export type IdempotentWrite = { claim: Claim; storedWithWrite?: Omit<Outcome, 'expiresAt'> };

/** What a completion's RETURNING rows hold: one row, with the body stored, when it stored anything. */
const stored = { key: idempotencyRecords.key, body: idempotencyRecords.responseBody };
export type StoredRows = readonly { key: string; body: string | null }[];

/** Stores the outcome of `claim`; its RETURNING rows say whether it stored anything. */
function completionStatement(db: Database, claim: Claim, outcome: Outcome) {
  return db
    .update(idempotencyRecords)
    .set({ responseStatus: outcome.status, responseBody: outcome.body, expiresAt: outcome.expiresAt })
    .where(claimRecord(claim))
    .returning(stored);
}

/** Stores the outcome of `claim` after the handler, to be replayed until `outcome.expiresAt`. */
export async function completeKey(db: Database, claim: Claim, outcome: Outcome): Promise<void> {
  await completionStatement(db, claim, outcome);
}

/** The claim's and the outcome's values in a conditional completion (names no condition uses). */
export type CompletionValues = {
  claimTenantId: string;
  claimKey: string;
  claimCreatedAt: string;
  responseStatus: number;
  responseBody: string;
  responseExpiresAt: string;
};

/** A completion stored only if its condition holds, for the values `C` of the condition. */
export type Completion<C> = (db: Database, values: CompletionValues & C) => ReturnType<typeof completionStatement>;

/** A conditional completion with its condition's values. */
export type StoredIf<C> = { completion: Completion<C>; values: C };

/**
 * A completion that stores the claim's outcome only if `onlyIf` holds: SQL placed after the write in
 * the same batch, on placeholders of its own values. `bodyOf` may finish the rendered body in SQL
 * (a value the write did not read); the stored body is what the RETURNING rows give back. Built
 * once (reusable-statements.ts): define it at module level, beside the write it confirms.
 */
export function completionWhen<C extends Record<string, unknown>>(
  onlyIf: (db: Database, $: Slots<C>) => SQL,
  bodyOf: ($: Slots<CompletionValues & C>) => SQL = ($) => sql`${$.responseBody}`,
): Completion<C> {
  return reusable((db, $: Slots<CompletionValues & C>) =>
    db
      .update(idempotencyRecords)
      .set({ responseStatus: sql`${$.responseStatus}`, responseBody: bodyOf($), expiresAt: sql`${$.responseExpiresAt}` })
      .where(
        and(
          eq(idempotencyRecords.tenantId, $.claimTenantId),
          eq(idempotencyRecords.key, $.claimKey),
          eq(idempotencyRecords.createdAt, $.claimCreatedAt),
          onlyIf(db, $),
        ),
      )
      .returning(stored),
  );
}

/** A write's means to store its response with itself (see the module's comment). */
export type ResponseWithWrite<View> = {
  /** The completion to place last in the write's batch (unconditional without `storedIf`). */
  statement<C extends Record<string, unknown>>(db: Database, view: View, storedIf?: StoredIf<C>): ReturnType<typeof completionStatement>;
  /** The statement's rows, once the batch ran: tells the middleware what was stored. */
  settle(rows: StoredRows | undefined): void;
};

/**
 * For a write answering `status` with `{success: true, data: view}`: its ResponseWithWrite, or
 * undefined outside a gateway write (no claim to store it in).
 */
export function responseWithWriteOf<View>(write: IdempotentWrite | undefined, status: 200 | 201): ResponseWithWrite<View> | undefined {
  if (!write) return undefined;
  const { claim } = write;
  let rendered: { status: number; body: string } | undefined;
  return {
    statement(db, view, storedIf) {
      // What c.json writes for the route's envelope.
      rendered = { status, body: JSON.stringify({ success: true, data: view }) };
      const outcome = keptOutcome(claim, rendered);
      if (!storedIf) return completionStatement(db, claim, outcome);
      const claimed = { claimTenantId: claim.tenantId, claimKey: claim.key, claimCreatedAt: claim.createdAt };
      return storedIf.completion(db, { ...claimed, responseStatus: outcome.status, responseBody: outcome.body, responseExpiresAt: outcome.expiresAt, ...storedIf.values });
    },
    settle(rows) {
      const body = rows?.[0]?.body;
      if (rendered && body) write.storedWithWrite = { status: rendered.status, body };
    },
  };
}
