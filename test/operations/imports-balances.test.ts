import { env } from 'cloudflare:test';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Address, Hex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { internalTransactions } from '../../src/db/schema';
import type { Bindings } from '../../src/env';
import { balanceOf, fundedRelayer } from '../support/chain';
import { createCustomerViaApi } from '../support/customers';
import { countingD1, newCost } from '../cohorts/counting-d1';
import { chunkMessages, createImportJob, deliverOperations, runImport } from '../support/imports';
import { lotRow, pointsOf, pointsWorld, setPoints, type PointsWorld } from '../support/points';
import { relayerEnv, settleAll } from '../support/settlement';
import { envWithShard } from '../support/race';
import { db, shardD1 } from '../support/world';
import { deployedAsset, getCustomer, newCustomer, newWorld, operationsOf } from '../settlement/fixtures';

/** Balances files (CONTRACT.md, Imports): each row an `xp_bonus` credit through the ledger's own statements. */

const HEADER = 'external_id,amount,notes,expires_at';

async function importedCredits(tenantId: string, userId: string) {
  return db(tenantId)
    .select()
    .from(internalTransactions)
    .where(and(eq(internalTransactions.tenantId, tenantId), eq(internalTransactions.userId, userId), eq(internalTransactions.type, 'xp_bonus')))
    .orderBy(internalTransactions.amount);
}

async function withExternalId(w: PointsWorld) {
  const customer = await createCustomerViaApi(w.key, { external_id: `member-${w.tenant.id}` });
  return { ...customer, externalId: customer.external_id };
}

describe('balances import', () => {
  it('credits each row as xp_bonus with notes, metadata.import_id and the lot expiring at expires_at; a repeated row is a second credit', async () => {
    const w = await pointsWorld();
    const member = await withExternalId(w);
    const expiry = '2031-06-30T00:00:00.000Z';
    const csv = [HEADER, `${member.externalId},150,"Opening balance, program A",${expiry}`, `${member.externalId},50,,`, `${member.externalId},50,,`, ''].join('\n');
    const job = await createImportJob(w.tenant.owner, w.tenant.id, 'balances', csv);
    expect(await runImport(w.tenant.owner, w.tenant.id, job.id)).toMatchObject({ status: 'completed', rows_total: 3, rows_ok: 3, rows_failed: 0 });
    expect(await pointsOf(w, member.id)).toMatchObject({ xp_balance: '250' });
    const credits = await importedCredits(w.tenant.id, member.id);
    expect(credits.map(({ amount, status, notes, metadata }) => ({ amount, status, notes, metadata }))).toEqual([
      { amount: 50, status: 'completed', notes: null, metadata: { import_id: job.id } },
      { amount: 50, status: 'completed', notes: null, metadata: { import_id: job.id } },
      { amount: 150, status: 'completed', notes: 'Opening balance, program A', metadata: { import_id: job.id } },
    ]);
    expect((await lotRow(w.tenant.id, credits[2]!.id)).expiresAt).toBe(expiry);
    expect((await lotRow(w.tenant.id, credits[0]!.id)).expiresAt).toBeNull();
  });

  it('reports an unknown external_id, a bad amount, a past or unreadable expires_at and a missing field, crediting the other rows', async () => {
    const w = await pointsWorld();
    const member = await withExternalId(w);
    const id = member.externalId;
    const csv = [HEADER, `${id},10,,`, 'nobody,10,,', `${id},1.5,,`, `${id},-3,,`, `${id},10,,2020-01-01T00:00:00Z`, `${id},10,,next tuesday`, `${id},10`, `${id},,,`, ''].join('\n');
    const job = await createImportJob(w.tenant.owner, w.tenant.id, 'balances', csv);
    const done = await runImport(w.tenant.owner, w.tenant.id, job.id);
    expect(done).toMatchObject({ rows_total: 8, rows_ok: 1, rows_failed: 7 });
    expect(done.errors).toEqual([
      { row: 3, message: 'external_id: no customer "nobody"' },
      { row: 4, message: expect.stringMatching(/^amount: /) },
      { row: 5, message: expect.stringMatching(/^amount: /) },
      { row: 6, message: 'expires_at: must be in the future' },
      { row: 7, message: expect.stringMatching(/^expires_at: /) },
      { row: 8, message: 'The row has 2 fields, the header 4' },
      { row: 9, message: expect.stringMatching(/^amount: /) },
    ]);
    expect(await pointsOf(w, member.id)).toMatchObject({ xp_balance: '10' });
  });

  it('writes a chunk with the same statements for 2 rows as for 300 over 3 members, credits numbered in file order', async () => {
    const w = await pointsWorld();
    const members = await Promise.all([1, 2, 3].map((n) => createCustomerViaApi(w.key, { external_id: `m${n}-${w.tenant.id}` })));
    const fileOf = (rows: number) => [HEADER, ...Array.from({ length: rows }, (_, i) => `${members[i % 3]!.external_id},${i + 1},,`), ''].join('\n');
    const chunkStatements = async (rows: number) => {
      const job = await createImportJob(w.tenant.owner, w.tenant.id, 'balances', fileOf(rows));
      const cost = newCost();
      expect((await deliverOperations(await chunkMessages(w.tenant.id, job.id), envWithShard(w.tenant.id, countingD1(shardD1(w.tenant.id), cost)))).retryMessages).toEqual([]);
      const writes = cost.trips.filter((trip) => trip.sql.some((text) => /insert into "import_chunks"/i.test(text)));
      expect(writes).toHaveLength(1);
      return { job, statements: writes[0]!.sql.length };
    };
    const small = await chunkStatements(2);
    const large = await chunkStatements(300);
    expect(large.statements).toBe(small.statements);
    // Member n got 1 + 2 (first file) and every (n + 3k) up to 300 (second): sums of arithmetic series.
    const expected = [1, 2, 3].map((n) => (n <= 2 ? n : 0) + Array.from({ length: 100 }, (_, k) => n + 3 * k).reduce((a, b) => a + b, 0));
    for (const [index, member] of members.entries()) expect(await pointsOf(w, member.id)).toMatchObject({ xp_balance: String(expected[index]) });
    const numbered = await db(w.tenant.id)
      .select({ amount: internalTransactions.amount })
      .from(internalTransactions)
      .where(and(eq(internalTransactions.tenantId, w.tenant.id), sql`json_extract(${internalTransactions.metadata}, '$.import_id') = ${large.job.id}`))
      .orderBy(asc(internalTransactions.seq));
    expect(numbered.map(({ amount }) => amount)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
  });

  it("follows the tenant's pending period: the credit waits, as a gateway bonus would", async () => {
    const w = await pointsWorld();
    await setPoints(w, { pending_period: 'P7D' });
    const member = await withExternalId(w);
    const job = await createImportJob(w.tenant.owner, w.tenant.id, 'balances', `${HEADER}\n${member.externalId},80,,\n`);
    expect(await runImport(w.tenant.owner, w.tenant.id, job.id)).toMatchObject({ rows_ok: 1 });
    const [credit] = await importedCredits(w.tenant.id, member.id);
    expect(credit!.status).toBe('pending');
    expect(await pointsOf(w, member.id)).toMatchObject({ xp_balance: '0' });
  });
});

describe('balances import with an XP token', () => {
  let runEnv: Bindings;
  let relayer: { privateKey: Hex; address: Address };
  beforeAll(async () => {
    relayer = await fundedRelayer();
    runEnv = relayerEnv(relayer.privateKey);
  });

  it('mints each imported credit, one operation each; a balance counts once its mint settles', async () => {
    const world = await newWorld('import-xp');
    const xp = await deployedAsset(world, runEnv, { type: 'erc20', key: 'xp', decimals: 0, name: 'XP', symbol: 'XP' });
    const customer = await newCustomer(world);
    const other = await newCustomer(world);
    const csv = `${HEADER}\n${customer.external_id},120,,\n${other.external_id},7,,\n`;
    const job = await createImportJob(world.tenant.owner, world.tenant.id, 'balances', csv);
    expect(await runImport(world.tenant.owner, world.tenant.id, job.id)).toMatchObject({ rows_ok: 2 });
    const [credit] = await importedCredits(world.tenant.id, customer.id);
    const [otherCredit] = await importedCredits(world.tenant.id, other.id);
    expect([credit!.status, otherCredit!.status]).toEqual(['initialized', 'initialized']);
    expect((await operationsOf(world.tenant.id, credit!.id)).map((operation) => [operation.kind, operation.amount])).toEqual([['mint', '120']]);
    expect((await operationsOf(world.tenant.id, otherCredit!.id)).map((operation) => [operation.kind, operation.amount])).toEqual([['mint', '7']]);
    expect((await getCustomer(world, customer.id)).xp_balance).toBe('0');
    await settleAll(runEnv, world.tenant.id);
    expect(await balanceOf(31337, 'erc20', xp.asset_address, customer.wallet)).toBe(120n);
    expect(await balanceOf(31337, 'erc20', xp.asset_address, other.wallet)).toBe(7n);
    expect((await getCustomer(world, customer.id)).xp_balance).toBe('120');
    expect((await getCustomer(world, other.id)).xp_balance).toBe('7');
  });
});
