/**
 * A late XP token at a thousand customers (issue 27): the opening advances in bounded chunks, a
 * bounded number of statements per cron run, and the token's supply ends equal to the ledger.
 */
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import type { Address, Hex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/client';
import { customers, internalTransactions, internalWallets, onchainOperations } from '../../src/db/schema';
import type { Bindings } from '../../src/env';
import { newId } from '../../src/lib/ids';
import { reconciliationSchema } from '../../src/schemas/onchain-asset';
import { runContext } from '../../src/services/context';
import { OPENING_CHUNK_SIZE, OPENING_CHUNKS_PER_RUN, openXpTokens } from '../../src/services/xp-openings';
import { countingD1, newCost } from '../cohorts/counting-d1';
import { fundedRelayer, publicClientFor } from '../support/chain';
import { expectOk } from '../support/http';
import { randomAddress } from '../support/rewards';
import { deliver, relayerEnv, runCron } from '../support/settlement';
import { db, portalCall, shardD1, shardRun } from '../support/world';
import { deployedAsset, newWorld } from './fixtures';

const CUSTOMERS = 1_000;

let relayer: { privateKey: Hex; address: Address };
let runEnv: Bindings;
beforeAll(async () => {
  relayer = await fundedRelayer();
  // A thousand mints at ~60-85 k gas each, beside the deploy: room in the day's budget for all of them.
  runEnv = relayerEnv(relayer.privateKey, { TENANT_DAILY_GAS_BUDGET: '500000000' });
});

/** A thousand customers with wallets and XP earned off-chain, inserted directly (they are not the subject here). */
async function customersWithXp(tenantId: string) {
  const rows = Array.from({ length: CUSTOMERS }, (_, i) => ({ id: newId('cus'), xp: 1 + (i % 97), address: randomAddress(), index: 7_000_000 + i }));
  // D1 binds at most 100 values per statement: a few rows per insert, many inserts per batch.
  for (let start = 0; start < rows.length; start += 100) {
    const statements = [];
    for (let at = start; at < start + 100; at += 5) {
      const part = rows.slice(at, at + 5);
      statements.push(
        db(tenantId).insert(customers).values(part.map((row) => ({ id: row.id, tenantId, externalId: `ext-${row.id}`, status: 'active' as const, xpBalance: row.xp, lifetimeXp: row.xp }))),
        db(tenantId).insert(internalWallets).values(part.map((row) => ({ id: newId('wal'), tenantId, userId: row.id, address: row.address, label: 'custodial', derivationIndex: row.index }))),
        db(tenantId).insert(internalTransactions).values(part.map((row) => ({ id: newId('itx'), tenantId, userId: row.id, type: 'xp_earn' as const, amount: row.xp, status: 'completed' as const }))),
      );
    }
    const [head, ...rest] = statements;
    await db(tenantId).batch([head!, ...rest]);
  }
  return rows;
}

/** One cron's worth of opening on the tenant's shard, counted statement by statement on the real binding. */
async function measuredOpening(tenantId: string) {
  const cost = newCost();
  const summary = await openXpTokens(shardRun(tenantId, { db: createDatabase(countingD1(shardD1(tenantId), cost)) }, runEnv));
  return { summary, cost };
}

describe('a late XP token at a thousand customers', () => {
  it('opens in bounded chunks, each run a bounded number of statements, mints once per customer, and reconciles to 0', { timeout: 240_000 }, async () => {
    const world = await newWorld('late-scale');
    const rows = await customersWithXp(world.tenant.id);
    const xp = await deployedAsset(world, runEnv, { type: 'erc20', key: 'xp', decimals: 0, name: 'XP', symbol: 'XP' });

    const first = await measuredOpening(world.tenant.id);
    expect(first.summary).toMatchObject({ tokens: 1, chunks: OPENING_CHUNKS_PER_RUN, operations: OPENING_CHUNKS_PER_RUN * OPENING_CHUNK_SIZE, completed: 0, errors: 0 });
    // Per chunk: the next customers, then one batch (openings, operations, cursor, the queued ids); and the due tokens once.
    expect(first.cost.statements).toBeLessThanOrEqual(1 + OPENING_CHUNKS_PER_RUN * 5);
    expect(first.cost.roundTrips).toBeLessThanOrEqual(1 + OPENING_CHUNKS_PER_RUN * 2);
    const second = await measuredOpening(world.tenant.id);
    expect(second.summary).toMatchObject({ tokens: 1, chunks: 1, operations: 0, completed: 1 });
    expect((await measuredOpening(world.tenant.id)).summary.tokens).toBe(0);

    const openings = await db(world.tenant.id).select().from(onchainOperations).where(eq(onchainOperations.onchainAssetId, xp.id ?? ''));
    const mints = openings.filter((op) => op.kind === 'opening_mint');
    expect(mints).toHaveLength(CUSTOMERS);
    expect(new Set(mints.map((op) => op.recipient?.toLowerCase())).size).toBe(CUSTOMERS);

    // Delivered in batches of 100; each cron follows up to 200 receipts. Slow machines take more
    // rounds: under a full suite a round can end before the queue's own deliveries of re-enqueued
    // operations have broadcast, and a nonce broadcast late holds every later one in the pool.
    const ofToken = () => db(world.tenant.id).select().from(onchainOperations).where(eq(onchainOperations.onchainAssetId, xp.id ?? ''));
    for (let round = 0; round < 240 && !(await ofToken()).every((op) => op.status === 'succeeded'); round += 1) {
      const due = (await ofToken()).filter((op) => op.status === 'queued').map((op) => op.id);
      for (let start = 0; start < due.length; start += 100) await deliver(runEnv, due.slice(start, start + 100));
      await runCron(runEnv);
    }
    const unsettled = (await ofToken()).filter((op) => op.status !== 'succeeded');
    const why = new Map<string, number>();
    for (const op of unsettled) {
      const reason = `${op.status} ${op.lastError ?? ''}`;
      why.set(reason, (why.get(reason) ?? 0) + 1);
    }
    const nonces = unsettled.flatMap((op) => (op.nonce === null ? [] : [op.nonce])).sort((a, b) => a - b);
    const relayerAddress = (await ofToken()).find((op) => op.relayerAddress)?.relayerAddress as Address | undefined;
    const mined = relayerAddress ? await publicClientFor(31337).getTransactionCount({ address: relayerAddress, blockTag: 'latest' }) : undefined;
    expect(Object.fromEntries(why), `unsettled nonces ${nonces[0]}..${nonces.at(-1)}, relayer's mined count ${mined}`).toEqual({});

    const path = `/api/v1/tenant/${world.tenant.id}/onchain-assets/${xp.id}/reconciliation`;
    const head = await publicClientFor(31337).getBlockNumber({ cacheTime: 0 });
    let report = expectOk(await portalCall(world.tenant.owner, 'GET', path), 200, reconciliationSchema);
    for (let round = 0; round < 20 && BigInt(report.last_indexed_block ?? -1) < head; round += 1) {
      await runCron(runEnv);
      report = expectOk(await portalCall(world.tenant.owner, 'GET', path), 200, reconciliationSchema);
    }
    const total = String(rows.reduce((sum, row) => sum + row.xp, 0));
    expect(report).toMatchObject({ ledger_total: total, onchain_total: total, difference: '0', customers: [], total_supply: total, supply_source: 'total_supply', supply_difference: '0' });
  });
});
