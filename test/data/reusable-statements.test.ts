import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { internalTransactions } from '../../src/db/schema';
import { reusable, reusableList, type Slots } from '../../src/data/reusable-statements';
import { newId } from '../../src/lib/ids';
import { createCustomer } from '../support/ledger';
import { createTenant, db, otherTenants } from '../support/world';

/**
 * Reusable statements (src/data/reusable-statements.ts) against the real D1 binding: SQL built once,
 * values bound per call as Drizzle binds inline values, results mapped as in any batch.
 */
type Entry = { id: string; tenantId: string; userId: string; amount: number; metadata: unknown; now: string };

let builds = 0;
const insertEntry = reusable((database, $: Slots<Entry>) => {
  builds += 1;
  return database.insert(internalTransactions).values({
    id: $.id, tenantId: $.tenantId, userId: $.userId, type: 'xp_earn', amount: $.amount, status: 'completed', metadata: $.metadata, createdAt: $.now, updatedAt: $.now,
  });
});
const readEntry = reusableList((database, $: Slots<{ id: string; tenantId: string }>) => [
  database.select().from(internalTransactions).where(and(eq(internalTransactions.id, $.id), eq(internalTransactions.tenantId, $.tenantId))),
  database.select({ amount: internalTransactions.amount }).from(internalTransactions).where(eq(internalTransactions.id, $.id)),
] as const);

async function entryValues(tenantId: string, metadata: unknown): Promise<Entry> {
  return { id: newId('itx'), tenantId, userId: await createCustomer(tenantId), amount: 7, metadata, now: new Date().toISOString() };
}

describe('reusable statements', () => {
  it('build their SQL once and bind each call\'s values; rows come back mapped (JSON parsed, camelCase)', async () => {
    const tenant = await createTenant();
    const first = await entryValues(tenant.id, { order: 'A-1' });
    const second = await entryValues(tenant.id, { order: 'B-2' });
    const before = builds;
    await db(tenant.id).batch([insertEntry(db(tenant.id), first), insertEntry(db(tenant.id), second)]);
    expect(builds - before).toBeLessThanOrEqual(1);
    const [[row], [amount]] = await db(tenant.id).batch(readEntry(db(tenant.id), { id: second.id, tenantId: tenant.id }));
    expect(row).toMatchObject({ id: second.id, userId: second.userId, metadata: { order: 'B-2' }, amount: 7 });
    expect(amount).toEqual({ amount: 7 });
  });

  it('bind a null as SQL NULL, not as the column\'s encoding of null (a JSON column would store "null")', async () => {
    const tenant = await createTenant();
    const values = await entryValues(tenant.id, null);
    await insertEntry(db(tenant.id), values);
    const stored = await db(tenant.id).$client.prepare('select metadata is null as storedNull from internal_transactions where id = ?').bind(values.id).first<{ storedNull: number }>();
    expect(stored?.storedNull).toBe(1);
  });

  it('refuse a missing value by name instead of binding undefined', async () => {
    const tenant = await createTenant();
    const { metadata: _omitted, ...partial } = await entryValues(tenant.id, null);
    expect(() => insertEntry(db(tenant.id), partial as Entry)).toThrow('reusable statement: no value for "metadata"');
  });

  it('are tenant-scoped by their values: another tenant\'s id (on another shard and on the same one) reads nothing', async () => {
    const tenant = await createTenant();
    const values = await entryValues(tenant.id, null);
    await insertEntry(db(tenant.id), values);
    for (const other of await otherTenants(tenant.id)) {
      const [rows] = await db(tenant.id).batch(readEntry(db(tenant.id), { id: values.id, tenantId: other.id }));
      expect(rows).toEqual([]);
    }
  });
});
