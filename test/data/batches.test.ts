import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ONE_ROW, selectedRow } from '../../src/data/insert-select';
import { namedBatch } from '../../src/data/named-batch';
import { createDatabase } from '../../src/db/client';
import { sequences } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { everyShard } from '../support/world';

/** These statements belong to no tenant: any shard's database will do, the first one's. */
const db = () => createDatabase(everyShard()[0]!.d1);

const value = (n: number) => db().select({ n: sql<number>`${n}`.as('n') }).from(ONE_ROW);

describe('namedBatch (src/data/named-batch.ts): results by name', () => {
  it('answers each statement under its name, a group as a tuple, a left-out one as undefined, in one batch in the order written', async () => {
    const { first, group, none, last } = await namedBatch(db(), { first: value(1), group: [value(2), value(3)], none: undefined, last: value(4) });
    expect(first).toEqual([{ n: 1 }]);
    expect(group).toEqual([[{ n: 2 }], [{ n: 3 }]]);
    expect(none).toBeUndefined();
    expect(last).toEqual([{ n: 4 }]);
  });

  it('a statement added before a result (in the batch, or inside a group) does not shift what its name reads', async () => {
    const before = await namedBatch(db(), { group: [value(2)], last: value(4) });
    const grown = await namedBatch(db(), { added: value(1), group: [value(2), value(3)], last: value(4) });
    expect(grown.last).toEqual(before.last);
    expect(grown.group[0]).toEqual(before.group[0]);
  });

  it('runs the batch as one transaction: a failing statement rolls back the others', async () => {
    const name = newId('seq');
    const run = namedBatch(db(), {
      insert: db().insert(sequences).values({ name, value: 1 }),
      failing: db().insert(sequences).values({ name, value: 2 }),
    });
    await expect(run).rejects.toThrow();
    expect(await db().select().from(sequences).where(eq(sequences.name, name))).toEqual([]);
  });
});

describe('selectedRow (src/data/insert-select.ts): INSERT ... SELECT by column name', () => {
  it('writes each value into the column that names it, whatever order the values are written in', async () => {
    const name = newId('seq');
    await db().insert(sequences).select(db().select(selectedRow(sequences, { value: 41, name })).from(ONE_ROW));
    expect(await db().select().from(sequences).where(eq(sequences.name, name))).toEqual([{ name, value: 41 }]);
  });

  it("names every column of the table, in the table's order; a column left out does not compile", () => {
    expect(Object.keys(selectedRow(sequences, { value: 0, name: 'x' }))).toEqual(['name', 'value']);
    // @ts-expect-error `value` is a column of sequences
    selectedRow(sequences, { name: 'x' });
  });
});
