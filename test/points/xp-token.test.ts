import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { internalWallets, onchainAssets, onchainOperations, XP_ASSET_KEY } from '../../src/db/schema';
import { failedStatements, runBatch, succeededStatements } from '../../src/data/settlement-outcomes';
import { newId } from '../../src/lib/ids';
import { isoNow } from '../../src/lib/time';
import { reversalSchema } from '../../src/schemas/reversal';
import { expectError, expectOk } from '../support/http';
import { DAY_MS, debit, earn, lotRow, pointsOf, pointsWorld, runLotJobsAt, setPoints, transactionOf, transactionsOfType, type PointsWorld } from '../support/points';
import { randomAddress } from '../support/rewards';
import { db, gatewayCall } from '../support/world';

/**
 * Lots when the tenant's XP token mirrors the ledger (CONTRACT.md, Point lifecycle): the mint or
 * burn of a credit, a debit, an expiry or a reversal settles later, and its outcome is applied by
 * the settlement's own statements (data/settlement-outcomes.ts), here without a chain: the token
 * and wallet are rows, and each test decides the outcome.
 */

/** A world whose customer is mirrored by an active XP token (rows only: nothing is sent to a chain). */
async function mirroredWorld(): Promise<PointsWorld> {
  const w = await pointsWorld();
  await db(w.tenant.id).insert(onchainAssets).values({ id: newId('ast'), tenantId: w.tenant.id, key: XP_ASSET_KEY, type: 'erc20', chainId: 31337, assetAddress: randomAddress(), decimals: 0, name: 'XP', symbol: 'XP' });
  const derivationIndex = crypto.getRandomValues(new Uint32Array(1))[0]! + 1_000_000;
  await db(w.tenant.id).insert(internalWallets).values({ id: newId('wal'), tenantId: w.tenant.id, userId: w.userId, address: randomAddress(), label: 'custodial', derivationIndex });
  return w;
}

async function operationOf(w: PointsWorld, transactionId: string) {
  const rows = await db(w.tenant.id).select().from(onchainOperations).where(and(eq(onchainOperations.tenantId, w.tenant.id), eq(onchainOperations.internalTransactionId, transactionId)));
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** Applies the outcome of the transaction's mint or burn as the settlement consumer does. */
async function settle(w: PointsWorld, transactionId: string, outcome: 'succeeded' | 'failed') {
  const operation = await operationOf(w, transactionId);
  const now = isoNow(new Date());
  const shard = db(w.tenant.id);
  await runBatch(shard, outcome === 'succeeded' ? succeededStatements(shard, operation, undefined, now) : failedStatements(shard, operation, undefined, 'reverted', now));
}

/** A credit of `amount` minted and settled: an active lot. */
async function settledCredit(w: PointsWorld, amount: number) {
  const credit = await earn(w, amount);
  expect(credit.status).toBe('initialized');
  expect(await lotRow(w.tenant.id, credit.id)).toMatchObject({ status: 'pending' });
  await settle(w, credit.id, 'succeeded');
  expect(await lotRow(w.tenant.id, credit.id)).toMatchObject({ status: 'active', remaining: amount });
  return credit;
}

const reverse = (w: PointsWorld, id: string, body: Record<string, unknown> = {}) => gatewayCall(w.key, 'POST', `/api/v1/gateway/internal-transactions/${id}/reverse`, { body });

describe('with an XP token', () => {
  it('a debit whose burn fails gives back exactly what it took to the same lots', async () => {
    const w = await mirroredWorld();
    const forever = await settledCredit(w, 100);
    await setPoints(w, { validity: 'P1D' });
    const expiring = await settledCredit(w, 30);
    const spend = await debit(w, 50);
    expect(spend.status).toBe('initialized');
    expect(await lotRow(w.tenant.id, expiring.id)).toMatchObject({ remaining: 0, status: 'spent' });
    expect(await lotRow(w.tenant.id, forever.id)).toMatchObject({ remaining: 80 });
    await settle(w, spend.id, 'failed');
    expect(await lotRow(w.tenant.id, expiring.id)).toMatchObject({ remaining: 30, status: 'active' });
    expect(await lotRow(w.tenant.id, forever.id)).toMatchObject({ remaining: 100, status: 'active' });
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '130' });
  });

  it('an expiry whose burn fails gives its lots back, and the next run expires them again', async () => {
    const w = await mirroredWorld();
    await setPoints(w, { validity: 'P1D' });
    const credit = await settledCredit(w, 40);
    const at = Date.now() + 2 * DAY_MS;
    await runLotJobsAt(at);
    const [expire] = await transactionsOfType(w, 'xp_expire');
    expect(expire).toMatchObject({ amount: '-40', status: 'initialized' });
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '0' });
    await settle(w, expire!.id, 'failed');
    expect(await lotRow(w.tenant.id, credit.id)).toMatchObject({ status: 'active', remaining: 40 });
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '40' });
    await runLotJobsAt(at + 60_000);
    const expires = await transactionsOfType(w, 'xp_expire');
    expect(expires.map((t) => t.status).sort()).toEqual(['failed', 'initialized']);
    expect(await lotRow(w.tenant.id, credit.id)).toMatchObject({ status: 'expired', remaining: 0 });
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '0' });
  });

  it('a pending credit is minted at activation for what is left of it: 409 CREDIT_SETTLING while it settles, active once the mint succeeds', async () => {
    const w = await mirroredWorld();
    await setPoints(w, { pending_period: 'P1D' });
    const credit = await earn(w, 60);
    expect(credit.status).toBe('pending');
    const part = reversalSchema.parse(expectOk(await reverse(w, credit.id, { amount: '10' }), 201, reversalSchema));
    await runLotJobsAt(Date.now() + 2 * DAY_MS);
    expect((await transactionOf(w, credit.id)).status).toBe('initialized');
    expect(await lotRow(w.tenant.id, credit.id)).toMatchObject({ status: 'pending', remaining: 50, activatedAt: expect.any(String) });
    expect(await operationOf(w, credit.id)).toMatchObject({ kind: 'mint', amount: '50' });
    expectError(await reverse(w, credit.id), 409, 'CREDIT_SETTLING');
    await settle(w, credit.id, 'succeeded');
    expect(await lotRow(w.tenant.id, credit.id)).toMatchObject({ status: 'active', remaining: 50 });
    expect((await transactionOf(w, part.internal_transaction!.id)).status).toBe('completed');
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '50', pending_xp: '0', lifetime_xp: '60' });
  });

  it('a reversal whose burn fails takes nothing back: balance, lot and what is left to reverse are as before', async () => {
    const w = await mirroredWorld();
    const credit = await settledCredit(w, 100);
    const result = reversalSchema.parse(expectOk(await reverse(w, credit.id, { amount: '40' }), 201, reversalSchema));
    expect(result.internal_transaction).toMatchObject({ status: 'initialized', amount: '-40' });
    await settle(w, result.internal_transaction!.id, 'failed');
    expect(await pointsOf(w)).toMatchObject({ xp_balance: '100' });
    expect(await lotRow(w.tenant.id, credit.id)).toMatchObject({ remaining: 100, reversed: 0 });
    // The return can be made again, in full.
    expect(reversalSchema.parse(expectOk(await reverse(w, credit.id), 201, reversalSchema))).toMatchObject({ reversed: '100' });
  });
});
