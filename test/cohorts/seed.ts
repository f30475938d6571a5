import { customerAttributeValues, customers } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { db } from '../support/world';
import type { MemoryCustomer, MemoryRules } from './evaluate';

/** Bulk fixtures for the cohort scale tests: deterministic, inserted through the real schema in few D1 round trips. */

/** A small seeded PRNG (mulberry32): the same seed builds the same world. */
export function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = 'abcdefgh';

export function letters(random: () => number, length: number): string {
  return Array.from({ length }, () => LETTERS[Math.floor(random() * LETTERS.length)]).join('');
}

/** 20 `contains` predicates on `bio`: `and` of single letters, `or` of letter pairs, so that counts vary. */
export function containsRules(random: () => number, operator: 'and' | 'or', count = 20): MemoryRules {
  const needle = () => letters(random, operator === 'and' ? 1 : 2);
  return { operator, predicates: Array.from({ length: count }, () => ({ type: 'attribute', key: 'bio', op: 'contains', value: needle() })) };
}

/** Rows per INSERT: D1 binds at most 100 parameters per statement. */
const ROWS_PER_INSERT = 8;

function chunks<T>(rows: T[]): T[][] {
  return Array.from({ length: Math.ceil(rows.length / ROWS_PER_INSERT) }, (_, index) => rows.slice(index * ROWS_PER_INSERT, (index + 1) * ROWS_PER_INSERT));
}

/**
 * `count` active customers with a 12-letter `bio`, created one millisecond apart (so newest first
 * is a known order). Their status is fixed and their XP 0, or `xp` (balance and lifetime) when given.
 */
export async function seedCustomers(
  tenantId: string,
  bioDefinitionId: string,
  count: number,
  random: () => number,
  xp: (random: () => number) => number = () => 0,
): Promise<MemoryCustomer[]> {
  const start = Date.parse('2024-01-01T00:00:00.000Z');
  const rows = Array.from({ length: count }, (_, index) => ({
    id: newId('cus'),
    createdAt: new Date(start + index).toISOString(),
    bio: letters(random, 12),
    xp: xp(random),
  }));
  const customerInserts = chunks(rows).map((chunk) =>
    db(tenantId)
      .insert(customers)
      .values(
        chunk.map(({ id, createdAt, xp }) => ({ id, tenantId, externalId: id, status: 'active' as const, xpBalance: xp, lifetimeXp: xp, createdAt, updatedAt: createdAt })),
      ),
  );
  const valueInserts = chunks(rows).map((chunk) =>
    db(tenantId)
      .insert(customerAttributeValues)
      .values(chunk.map(({ id, bio }) => ({ tenantId, userId: id, definitionId: bioDefinitionId, valueText: bio }))),
  );
  const [first, ...rest] = [...customerInserts, ...valueInserts];
  if (first) await db(tenantId).batch([first, ...rest]);
  return rows.map(({ id, bio, xp }) => ({ id, status: 'active', country: null, xpBalance: xp, lifetimeXp: xp, attributes: { bio } }));
}
