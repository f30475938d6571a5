import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customers, internalTransactions } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { addXp, createCustomerViaApi, createTierViaApi } from '../support/customers';
import { completedExport, downloadCsv } from '../support/exports';
import { createCohort, defineAttribute, rulesOf, setValues } from '../support/segments';
import { createTenant, createTestApiKey, db, portalCall, type TestTenant } from '../support/world';

/**
 * What each export kind's CSV holds, parsed back with csv-parse (docs/OPERATIONS.md, "Exports"):
 * the columns, values that need quoting, rows over several pages (the page size lowered to 2 or
 * 1), the period, and an erased customer shown as the live row shows it.
 */

const NOTE = 'line one\nline two, with "quotes" and a comma';
const USERNAME = 'O\'Brien, "Jr"';

async function erase(tenant: TestTenant, customerId: string) {
  const res = await portalCall(tenant.owner, 'POST', `/api/v1/tenant/${tenant.id}/customers/${customerId}/erase`);
  expect(res.status, res.text).toBe(200);
}

describe('customers export', () => {
  it('has one row per customer over several pages, the tier, balances and one attr.<key> column per definition, quoted where needed', async () => {
    const tenant = await createTenant('export-customers');
    const key = await createTestApiKey(tenant.id);
    const gold = await createTierViaApi(tenant.owner, tenant.id, 'Gold', 100);
    await defineAttribute(tenant.owner, tenant.id, 'note', 'string');
    await defineAttribute(tenant.owner, tenant.id, 'vip', 'boolean');
    const quoted = await createCustomerViaApi(key, { email: 'obrien@example.com', username: USERNAME, country_code: 'IE' });
    await setValues(tenant.owner, tenant.id, quoted.id, { note: NOTE, vip: true });
    const rich = await createCustomerViaApi(key, { username: 'rich' });
    await addXp(tenant.id, rich.id, 150);
    const plain = await createCustomerViaApi(key);

    const job = await completedExport(tenant.owner, tenant.id, { kind: 'customers' }, { pageSize: 2 });
    expect(job.rows).toBe(3);
    const { header, records, response } = await downloadCsv(job.download_url!);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="customers-${job.id}.csv"`);
    expect(header).toEqual([
      'id', 'external_id', 'email', 'username', 'country_code', 'status', 'tier_id', 'tier_name',
      'xp_balance', 'pending_xp', 'lifetime_xp', 'erased_at', 'created_at', 'attr.note', 'attr.vip',
    ]);
    expect(records.map((record) => record.id)).toEqual([quoted.id, rich.id, plain.id]);
    expect(records[0]).toMatchObject({ external_id: quoted.external_id, email: 'obrien@example.com', username: USERNAME, country_code: 'IE', status: 'active', 'attr.note': NOTE, 'attr.vip': 'true', tier_id: '', xp_balance: '0' });
    expect(records[1]).toMatchObject({ tier_id: gold.id, tier_name: 'Gold', xp_balance: '150', lifetime_xp: '150', pending_xp: '0', 'attr.note': '', 'attr.vip': '' });
    expect(records[2]).toMatchObject({ external_id: plain.external_id, created_at: plain.created_at, erased_at: '' });
  });

  it('shows an erased customer as the live row: no external id, email, username or attribute value of the person', async () => {
    const tenant = await createTenant('export-erased');
    const key = await createTestApiKey(tenant.id);
    await defineAttribute(tenant.owner, tenant.id, 'drink', 'string');
    const person = await createCustomerViaApi(key, { external_id: 'shop-erase-me', email: 'erase.me@example.com', username: 'erase-me' });
    await setValues(tenant.owner, tenant.id, person.id, { drink: 'oat flat white' });
    await addXp(tenant.id, person.id, 40);
    await erase(tenant, person.id);

    const job = await completedExport(tenant.owner, tenant.id, { kind: 'customers' });
    const { records } = await downloadCsv(job.download_url!);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ id: person.id, external_id: '', email: '', username: '', 'attr.drink': '', xp_balance: '40' });
    expect(records[0]!.erased_at).not.toBe('');
    const text = JSON.stringify(records);
    for (const old of ['shop-erase-me', 'erase.me@example.com', 'erase-me', 'oat flat white']) expect(text).not.toContain(old);
  });

  it('takes the customers created within [from, to]', async () => {
    const tenant = await createTenant('export-period');
    const key = await createTestApiKey(tenant.id);
    const ids: string[] = [];
    for (const createdAt of ['2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z']) {
      const customer = await createCustomerViaApi(key);
      await db(tenant.id).update(customers).set({ createdAt }).where(eq(customers.id, customer.id));
      ids.push(customer.id);
    }
    const job = await completedExport(tenant.owner, tenant.id, { kind: 'customers', from: '2026-01-15T00:00:00Z', to: '2026-03-01T01:00:00+01:00' }, { pageSize: 1 });
    expect(job).toMatchObject({ rows: 2, from: '2026-01-15T00:00:00.000Z', to: '2026-03-01T00:00:00.000Z' });
    expect((await downloadCsv(job.download_url!)).records.map((record) => record.id)).toEqual(ids.slice(1));
  });
});

describe('internal_transactions export', () => {
  it('has the ledger fields, pages through rows of the same created_at by id, and keeps to the period', async () => {
    const tenant = await createTenant('export-ledger');
    const key = await createTestApiKey(tenant.id);
    const customer = await createCustomerViaApi(key, { external_id: 'shop-1' });
    for (const amount of [10, 20, 30, 40]) await addXp(tenant.id, customer.id, amount);
    const rows = await db(tenant.id).select().from(internalTransactions).where(eq(internalTransactions.tenantId, tenant.id));
    // Three rows in the same millisecond (the keyset's tie), one outside the period.
    const times = ['2026-05-01T10:00:00.000Z', '2026-05-01T10:00:00.000Z', '2026-05-01T10:00:00.000Z', '2026-06-01T00:00:00.000Z'];
    for (const [i, row] of rows.entries()) {
      await db(tenant.id).update(internalTransactions).set({ createdAt: times[i]!, notes: i === 0 ? 'refund, "late"\nsecond line' : null, metadata: i === 1 ? { order: 'o-1' } : null }).where(eq(internalTransactions.id, row.id));
    }
    const job = await completedExport(tenant.owner, tenant.id, { kind: 'internal_transactions', to: '2026-05-31T23:59:59Z' }, { pageSize: 1 });
    expect(job.rows).toBe(3);
    const { header, records } = await downloadCsv(job.download_url!);
    expect(header).toEqual(['id', 'user_id', 'external_id', 'type', 'amount', 'status', 'onchain_asset_id', 'redemption_id', 'notes', 'metadata', 'created_at', 'updated_at']);
    const inPeriod = rows.slice(0, 3).sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(records.map((record) => record.id)).toEqual(inPeriod.map((row) => row.id));
    const first = records.find((record) => record.id === rows[0]!.id)!;
    expect(first).toMatchObject({ user_id: customer.id, external_id: 'shop-1', type: 'xp_earn', amount: '10', status: 'completed', notes: 'refund, "late"\nsecond line', metadata: '' });
    expect(records.find((record) => record.id === rows[1]!.id)!.metadata).toBe('{"order":"o-1"}');
  });

  it("shows an erased customer's rows without the person's external id", async () => {
    const tenant = await createTenant('export-ledger-erased');
    const key = await createTestApiKey(tenant.id);
    const customer = await createCustomerViaApi(key, { external_id: 'shop-gone' });
    await addXp(tenant.id, customer.id, 5);
    await erase(tenant, customer.id);
    const job = await completedExport(tenant.owner, tenant.id, { kind: 'internal_transactions' });
    const { records } = await downloadCsv(job.download_url!);
    expect(records).toMatchObject([{ user_id: customer.id, external_id: '', amount: '5' }]);
  });
});

describe('cohort_members export', () => {
  it("lists the cohort's members as it matches now, over several pages, never an erased person's values", async () => {
    const tenant = await createTenant('export-cohort');
    const key = await createTestApiKey(tenant.id);
    const cohort = await createCohort(tenant.owner, tenant.id, rulesOf('and', { type: 'status', op: 'eq', value: 'active' }));
    const members: Awaited<ReturnType<typeof createCustomerViaApi>>[] = [];
    for (let i = 0; i < 3; i += 1) members.push(await createCustomerViaApi(key, { external_id: `shop-${i}-${newId('x')}`, email: `m${i}@example.com`, username: i === 0 ? USERNAME : `m${i}` }));
    await erase(tenant, members[2]!.id);

    const job = await completedExport(tenant.owner, tenant.id, { kind: 'cohort_members', cohort_id: cohort.id }, { pageSize: 2 });
    expect(job).toMatchObject({ rows: 3, cohort_id: cohort.id });
    const { header, records } = await downloadCsv(job.download_url!);
    expect(header).toEqual(['customer_id', 'external_id', 'email', 'username', 'status', 'customer_created_at']);
    expect(records.map((record) => record.customer_id).sort()).toEqual(members.map((member) => member.id).sort());
    expect(records.find((record) => record.customer_id === members[0]!.id)).toMatchObject({ username: USERNAME, email: 'm0@example.com', external_id: members[0]!.external_id });
    expect(records.find((record) => record.customer_id === members[2]!.id)).toMatchObject({ external_id: '', email: '', username: '' });
    expect(JSON.stringify(records)).not.toContain(members[2]!.external_id);
  });
});
