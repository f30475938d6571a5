import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from '../db/client';

type Statement = BatchItem<'sqlite'>;
/** A statement, a fixed group of them (a `reusableList` or a builder's tuple), or none. */
type Entry = Statement | readonly Statement[] | undefined;

type ResultOf<E> = E extends readonly Statement[] ? { -readonly [K in keyof E]: E[K] extends Statement ? E[K]['_']['result'] : never } : E extends Statement ? E['_']['result'] : undefined;

/** The results of `namedBatch`, each under its statement's name (a group's as a tuple; none's undefined). */
export type NamedResults<S extends Record<string, Entry>> = { [K in keyof S]: ResultOf<S[K]> };

/**
 * One D1 batch (one transaction) of named statements, run in the order they are written; each
 * result comes back under its statement's name. A batch's results read by position shift when a
 * statement is added before them (in the batch or inside a group spread into it); by name they
 * cannot. An entry may be a group (its results a tuple) or undefined (left out; its result
 * undefined).
 *
 * @example
 * const { entry, readBack, stored } = await namedBatch(db, {
 *   guard: customerGuardStatement(db, tenantId, userId, EARNING_STATUSES),
 *   entry: ledgerEntryStatements(db, ledgerEntry, now),
 *   readBack: entryReadBack(db, { id, tenantId }),
 *   stored: completion,
 * });
 */
export async function namedBatch<S extends Record<string, Entry>>(db: Database, statements: S): Promise<NamedResults<S>> {
  const spans: { name: string; start: number; group: boolean; size: number }[] = [];
  const flat: Statement[] = [];
  for (const [name, entry] of Object.entries(statements)) {
    if (entry === undefined) continue;
    const group = Array.isArray(entry);
    const items: readonly Statement[] = group ? entry : [entry as Statement];
    spans.push({ name, start: flat.length, group, size: items.length });
    flat.push(...items);
  }
  const [first, ...rest] = flat;
  const results: unknown[] = first ? await db.batch([first, ...rest]) : [];
  const named: Record<string, unknown> = {};
  for (const { name, start, group, size } of spans) named[name] = group ? results.slice(start, start + size) : results[start];
  return named as NamedResults<S>;
}
