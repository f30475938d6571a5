import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customerAttributeValues, customers, internalWallets } from '../../src/db/schema';
import type { Bindings } from '../../src/env';
import { pageSchema } from '../../src/lib/paging';
import { customerSchema } from '../../src/schemas/customer';
import { recorder } from '../gateway/recorded';
import { expectOk } from '../support/http';
import { chunkMessages, createImportJob, deliverOperations, getImportJob } from '../support/imports';
import { createCustomer } from '../support/ledger';
import { createCohort, defineAttribute, memberIds, rulesOf, setValues, tenantPath } from '../support/segments';
import { createEndpoint, eventsOf, newInbox } from '../support/webhooks';
import { createTenant, db, portalCall, type TestMember } from '../support/world';

/**
 * A customers chunk written set-based (src/services/import-customers.ts, src/data/customer-sets.ts):
 * a statement per kind of write whatever the number of rows, the rows of one external id folded in
 * file order, and every trigger still firing per customer.
 */

type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** Runs every chunk of the import on a D1 that records each batch; answers the SQL of each chunk's write batch (the one its marker leads). */
async function importRecorded(tenant: Tenant, csv: string) {
  const job = await createImportJob(tenant.owner, tenant.id, 'customers', csv);
  const recorded = recorder();
  const result = await deliverOperations(await chunkMessages(tenant.id, job.id), recorded.env as unknown as Bindings);
  expect(result.retryMessages).toEqual([]);
  const writes = recorded.trips.flatMap((trip) => (trip.kind === 'd1' && trip.statements[0]?.startsWith('insert into "import_chunks"') ? [trip.statements] : []));
  return { writes, done: await getImportJob(tenant.owner, tenant.id, job.id) };
}

async function customerByExternalId(tenantId: string, externalId: string) {
  const rows = await db(tenantId).select().from(customers).where(and(eq(customers.tenantId, tenantId), eq(customers.externalId, externalId)));
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

async function valuesOf(tenantId: string, userId: string) {
  return db(tenantId).select().from(customerAttributeValues).where(and(eq(customerAttributeValues.tenantId, tenantId), eq(customerAttributeValues.userId, userId)));
}

/** A file of `fresh` new customers and `existing` updated ones (a profile field, a status move, two attribute values each). */
function mixedFile(prefix: string, fresh: number, existing: readonly string[]) {
  const header = 'external_id,email,username,country_code,status,attr.age,attr.hint';
  const created = Array.from({ length: fresh }, (_, index) => `${prefix}-${index},${prefix}-${index}@example.com,name ${index},DE,pending,${index},h${index}`);
  const updated = existing.map((externalId, index) => `${externalId},,renamed ${index},,suspended,${index + 100},`);
  return [header, ...created, ...updated, ''].join('\n');
}

/** A CSV field, quoted (its quotes doubled). */
const csvField = (value: string) => `"${value.replaceAll('"', '""')}"`;

const total = async (member: TestMember, tenantId: string, query: string) =>
  expectOk(await portalCall(member, 'GET', tenantPath(tenantId, `/customers?${query}`)), 200, pageSchema(customerSchema)).total_count;

describe('customers import, set-based', () => {
  it('writes a chunk of 4 rows and one of 90 with the same statements: one per kind of write', async () => {
    const tenant = await createTenant();
    await defineAttribute(tenant.owner, tenant.id, 'age', 'number');
    await defineAttribute(tenant.owner, tenant.id, 'hint', 'string');
    const existing = await Promise.all(Array.from({ length: 32 }, () => createCustomer(tenant.id)));
    const externalIds = existing.map((id) => `ext-${id}`);

    const small = await importRecorded(tenant, mixedFile('small', 2, externalIds.slice(0, 2)));
    const large = await importRecorded(tenant, mixedFile('large', 60, externalIds.slice(2)));
    expect(small.done).toMatchObject({ rows_ok: 4, rows_failed: 0 });
    expect(large.done).toMatchObject({ rows_ok: 90, rows_failed: 0 });
    expect(small.writes).toHaveLength(1);
    expect(large.writes).toHaveLength(1);
    const [smallBatch, largeBatch] = [small.writes[0]!, large.writes[0]!];
    expect(largeBatch).toEqual(smallBatch);
    const rowStatements = smallBatch.filter((text) => !/"import_(chunks|jobs|errors)"/.test(text));
    expect(rowStatements.map((text) => /^(insert into|update) "?(\w+)"?/.exec(text)?.slice(1).join(' '))).toEqual([
      'insert into customers',
      'insert into internal_wallets',
      'update customers',
      'update customers',
      'insert into customer_attribute_values',
    ]);
    // Marker, the five, progress. A statement per write took 4 per new customer here and 3 per updated one: 16 and 332.
    expect(smallBatch).toHaveLength(7);

    // The fixtures' customers have none (inserted directly): a wallet per imported customer.
    const wallets = await db(tenant.id).select().from(internalWallets).where(eq(internalWallets.tenantId, tenant.id));
    expect(wallets).toHaveLength(62);
    expect(new Set(wallets.map((wallet) => wallet.derivationIndex)).size).toBe(62);
    const updated = await db(tenant.id).select().from(customers).where(inArray(customers.id, existing));
    expect(updated.every((row) => row.status === 'suspended' && row.username?.startsWith('renamed '))).toBe(true);
    const fresh = await customerByExternalId(tenant.id, 'large-59');
    expect(fresh).toMatchObject({ email: 'large-59@example.com', username: 'name 59', countryCode: 'DE', status: 'pending' });
    expect((await valuesOf(tenant.id, fresh.id)).map((value) => value.valueText ?? value.valueNumber).sort()).toEqual([59, 'h59'].sort());
    expect((await valuesOf(tenant.id, existing[31]!)).map((value) => value.valueNumber)).toEqual([129]);
  });

  it('folds the rows of one external id in file order: later rows update, an illegal move is that row\'s error and changes nothing', async () => {
    const tenant = await createTenant();
    await defineAttribute(tenant.owner, tenant.id, 'age', 'number');
    const old = await createCustomer(tenant.id, { email: 'old@example.com', username: 'old' });
    const csv = [
      'external_id,email,username,country_code,status,attr.age',
      'fold-1,a@example.com,first,,pending,1',
      'fold-1,,second,DE,active,2',
      'fold-1,,third,,reinstated,99',
      'fold-1,,,,suspended,',
      `ext-${old},new@example.com,,,suspended,5`,
      `ext-${old},,,,pending,6`,
      `ext-${old},,renamed,,reinstated,`,
      '',
    ].join('\n');
    const { done } = await importRecorded(tenant, csv);
    expect(done).toMatchObject({ rows_ok: 5, rows_failed: 2 });
    expect(done.errors).toEqual([
      { row: 4, message: 'status: the customer is active and cannot move to reinstated' },
      { row: 7, message: 'status: the customer is suspended and cannot move to pending' },
    ]);
    const created = await customerByExternalId(tenant.id, 'fold-1');
    expect(created).toMatchObject({ email: 'a@example.com', username: 'second', countryCode: 'DE', status: 'suspended' });
    expect((await valuesOf(tenant.id, created.id)).map((value) => value.valueNumber)).toEqual([2]);
    expect(await db(tenant.id).select().from(internalWallets).where(eq(internalWallets.userId, created.id))).toHaveLength(1);
    const updated = await customerByExternalId(tenant.id, `ext-${old}`);
    expect(updated).toMatchObject({ id: old, email: 'new@example.com', username: 'renamed', status: 'reinstated' });
    expect((await valuesOf(tenant.id, old)).map((value) => value.valueNumber)).toEqual([5]);
  });

  it('writes no value without attribute columns or with blank attribute cells, and keeps the values stored', async () => {
    const tenant = await createTenant();
    await defineAttribute(tenant.owner, tenant.id, 'age', 'number');
    const kept = await createCustomer(tenant.id);
    await setValues(tenant.owner, tenant.id, kept, { age: 5 });
    const withoutColumns = await importRecorded(tenant, `external_id,username\next-${kept},renamed\nnone-1,x\n`);
    const blankCells = await importRecorded(tenant, `external_id,attr.age\next-${kept},\nnone-2,\n`);
    for (const { done, writes } of [withoutColumns, blankCells]) {
      expect(done).toMatchObject({ rows_ok: 2, rows_failed: 0 });
      expect(writes.flat().some((text) => text.includes('"customer_attribute_values"'))).toBe(false);
    }
    expect((await valuesOf(tenant.id, kept)).map((value) => value.valueNumber)).toEqual([5]);
    expect(await valuesOf(tenant.id, (await customerByExternalId(tenant.id, 'none-2')).id)).toEqual([]);
    expect((await customerByExternalId(tenant.id, `ext-${kept}`)).username).toBe('renamed');
  });

  it('stores each value as the gateway does: numbers exact, text that looks like JSON or a number stays text; an upsert keeps created_at', async () => {
    const tenant = await createTenant();
    const keys = new Map<string, string>();
    for (const [key, type] of [['n', 'number'], ['s', 'string'], ['b', 'boolean'], ['l', 'string_list']] as const) keys.set(await defineAttribute(tenant.owner, tenant.id, key, type), key);
    const numbers = ['0.1', '0.30000000000000004', '123456789.12345679', '-2.5e-7', '9007199254740993', '1e+300'];
    const texts = ['41', '{"a":1}', 'null', 'true', '[1]'];
    const csv = [
      'external_id,attr.n,attr.s,attr.b,attr.l',
      ...numbers.map((n, index) => [`num-${index}`, n, texts[index % texts.length]!, 'true', '["x","y"]'].map(csvField).join(',')),
      '',
    ].join('\n');
    const { done } = await importRecorded(tenant, csv);
    expect(done).toMatchObject({ rows_ok: numbers.length, rows_failed: 0 });
    for (const [index, raw] of numbers.entries()) {
      const customer = await customerByExternalId(tenant.id, `num-${index}`);
      const stored = Object.fromEntries((await valuesOf(tenant.id, customer.id)).map((value) => [keys.get(value.definitionId), value]));
      expect(stored.n).toMatchObject({ valueNumber: Number(raw), valueText: null });
      expect(stored.s).toMatchObject({ valueText: texts[index % texts.length], valueNumber: null });
      expect(stored.b).toMatchObject({ valueNumber: 1, valueText: null });
      expect(stored.l).toMatchObject({ valueText: '["x","y"]', valueNumber: null });
    }

    const first = await customerByExternalId(tenant.id, 'num-0');
    const [before] = (await valuesOf(tenant.id, first.id)).filter((value) => value.valueText === null && value.valueNumber === 0.1);
    await importRecorded(tenant, 'external_id,attr.n\nnum-0,7\n');
    const [after] = (await valuesOf(tenant.id, first.id)).filter((value) => value.definitionId === before!.definitionId);
    expect(after).toMatchObject({ valueNumber: 7, createdAt: before!.createdAt });
    expect(after!.updatedAt >= before!.updatedAt).toBe(true);
  });

  it("splits a set over D1's 2 MB string limit into more statements, in one batch", async () => {
    const tenant = await createTenant();
    const listId = await defineAttribute(tenant.owner, tenant.id, 'notes', 'string_list');
    // 100 rows of a 10 kB value: about 1 MB of JSON rows, more than one statement takes.
    const list = (index: number) => JSON.stringify(Array.from({ length: 10 }, (_, item) => `${index}-${item}-`.padEnd(1_000, 'x')));
    const csv = ['external_id,attr.notes', ...Array.from({ length: 100 }, (_, index) => `big-${index},${csvField(list(index))}`), ''].join('\n');
    const { done, writes } = await importRecorded(tenant, csv);
    expect(done).toMatchObject({ rows_ok: 100, rows_failed: 0 });
    expect(writes).toHaveLength(1);
    expect(writes[0]!.filter((text) => text.startsWith('insert into "customer_attribute_values"'))).toHaveLength(2);
    const stored = await db(tenant.id).select().from(customerAttributeValues).where(and(eq(customerAttributeValues.tenantId, tenant.id), eq(customerAttributeValues.definitionId, listId)));
    expect(stored).toHaveLength(100);
    const last = await customerByExternalId(tenant.id, 'big-99');
    expect(stored.find((value) => value.userId === last.id)?.valueText).toBe(list(99));
  });

  it('fires the per-customer triggers for every row of a set: webhook events, cohort memberships, list positions and counts', async () => {
    const tenant = await createTenant();
    const moved = await createCustomer(tenant.id, { countryCode: 'FR' });
    await createEndpoint(tenant.owner, tenant.id, newInbox().url, ['customer.created', 'customer.status_changed']);
    const cohort = await createCohort(tenant.owner, tenant.id, rulesOf('and', { type: 'country', op: 'eq', value: 'de' }));
    const csv = ['external_id,country_code,status', 'w-1,DE,', 'w-2,DE,suspended', 'w-3,FR,', `ext-${moved},DE,suspended`, ''].join('\n');
    const { done } = await importRecorded(tenant, csv);
    expect(done).toMatchObject({ rows_ok: 4, rows_failed: 0 });

    const created = await Promise.all(['w-1', 'w-2', 'w-3'].map((externalId) => customerByExternalId(tenant.id, externalId)));
    const events = await eventsOf(tenant.id);
    expect(events.filter((event) => event.type === 'customer.created').map((event) => event.resourceId).sort()).toEqual(created.map((row) => row.id).sort());
    expect(events.filter((event) => event.type === 'customer.status_changed').map((event) => event.resourceId)).toEqual([moved]);
    expect(await memberIds(tenant.owner, tenant.id, cohort.id)).toEqual([created[0]!.id, created[1]!.id, moved].sort());
    const positions = (await db(tenant.id).select({ seq: customers.seq }).from(customers).where(eq(customers.tenantId, tenant.id))).map((row) => row.seq);
    expect(new Set(positions).size).toBe(4);
    expect(positions.every((seq) => typeof seq === 'number')).toBe(true);
    expect(await total(tenant.owner, tenant.id, 'status=suspended')).toBe(2);
    expect(await total(tenant.owner, tenant.id, 'status=active')).toBe(2);
  });
});

