import { beforeAll, describe, expect, it } from 'vitest';
import type { Address, Hex } from 'viem';
import type { Bindings } from '../../src/env';
import { reconciliationSchema } from '../../src/schemas/onchain-asset';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { reversalSchema } from '../../src/schemas/reversal';
import { runContext } from '../../src/services/context';
import { runLotJobs } from '../../src/services/point-jobs';
import { balanceOf, fundedRelayer } from '../support/chain';
import { expectError, expectOk } from '../support/http';
import { relayerEnv, settleAll } from '../support/settlement';
import { gatewayCall, portalCall, shardRun } from '../support/world';
import { deployedAsset, earn, getCustomer, newCustomer, newWorld, operationsOf, type World } from '../settlement/fixtures';

let relayer: { privateKey: Hex; address: Address };
let runEnv: Bindings;

beforeAll(async () => {
  relayer = await fundedRelayer();
  runEnv = relayerEnv(relayer.privateKey);
});

const HOUR = 3_600_000;

async function pointsSettings(world: World, points: Record<string, unknown>) {
  const body = { timezone: 'UTC', points, tiers: { basis: 'lifetime', period: null, downgrade: 'none', review: 'yearly' } };
  expect((await portalCall(world.tenant.owner, 'PUT', `/api/v1/tenant/${world.tenant.id}/program-settings`, body)).status).toBe(200);
}

async function reverse(world: World, id: string, amount?: number) {
  const res = await gatewayCall(world.key, 'POST', `/api/v1/gateway/internal-transactions/${id}/reverse`, { body: amount === undefined ? {} : { amount: String(amount) } });
  return expectOk(res, 201, reversalSchema);
}

async function transaction(world: World, id: string) {
  return expectOk(await gatewayCall(world.key, 'GET', `/api/v1/gateway/internal-transactions/${id}`), 200, internalTransactionSchema);
}

/** The minute cron's lot jobs on the tenant's shard as if run `ms` from now. */
const lotJobsIn = (tenantId: string, ms: number) => runLotJobs(shardRun(tenantId, { now: () => new Date(Date.now() + ms) }, runEnv));

describe('the point lifecycle on a chain with an XP token', () => {
  it('pending credits mint at activation (only what a return left), reversals and expiry burn, and the ledger reconciles to 0', async () => {
    const world = await newWorld('points-chain');
    const xp = await deployedAsset(world, runEnv, { type: 'erc20', key: 'xp', decimals: 0, name: 'XP', symbol: 'XP' });
    const customer = await newCustomer(world);
    await pointsSettings(world, { pending_period: 'PT1H', validity: 'P1D', expiry_rounding: 'none', expiry_notice: null });

    // A pending credit is not minted while it waits; a return of part of it is never minted at all.
    const first = await earn(world, customer.id, 100);
    expect(first).toMatchObject({ status: 'pending', onchain_asset_id: null });
    expect(await operationsOf(world.tenant.id, first.id)).toEqual([]);
    const partial = await reverse(world, first.id, 30);
    expect(partial).toMatchObject({ reversed: '30', unrecovered: '0', internal_transaction: { type: 'xp_reversal', amount: '-30', status: 'pending' } });

    expect((await lotJobsIn(world.tenant.id, 2 * HOUR)).activated).toBeGreaterThanOrEqual(1);
    expect((await transaction(world, first.id)).status).toBe('initialized');
    const [mint] = await operationsOf(world.tenant.id, first.id);
    expect(mint).toMatchObject({ kind: 'mint', amount: '70' });
    expect((await getCustomer(world, customer.id)).xp_balance).toBe('0');
    await settleAll(runEnv, world.tenant.id);
    expect(await balanceOf(31337, 'erc20', xp.asset_address, customer.wallet)).toBe(70n);
    expect(await getCustomer(world, customer.id)).toMatchObject({ xp_balance: '70', lifetime_xp: '100' });
    expect((await transaction(world, first.id)).status).toBe('completed');
    expect((await transaction(world, partial.internal_transaction?.id ?? '')).status).toBe('completed');

    // An active credit's reversal is a debit: reserved at once, burned.
    const second = await earn(world, customer.id, 50);
    await lotJobsIn(world.tenant.id, 2 * HOUR);
    await settleAll(runEnv, world.tenant.id);
    expect((await getCustomer(world, customer.id)).xp_balance).toBe('120');
    const returned = await reverse(world, second.id, 20);
    expect(returned).toMatchObject({ reversed: '20', internal_transaction: { status: 'initialized', amount: '-20' } });
    expect((await getCustomer(world, customer.id)).xp_balance).toBe('100');
    const [burn] = await operationsOf(world.tenant.id, returned.internal_transaction?.id ?? '');
    expect(burn).toMatchObject({ kind: 'burn', amount: '20' });
    await settleAll(runEnv, world.tenant.id);
    expect(await balanceOf(31337, 'erc20', xp.asset_address, customer.wallet)).toBe(100n);

    // Expiry burns what is left: one xp_expire for the customer's two lots.
    const expiry = await lotJobsIn(world.tenant.id, 3 * 24 * HOUR);
    expect(expiry.expired).toBeGreaterThanOrEqual(2);
    expect((await getCustomer(world, customer.id)).xp_balance).toBe('0');
    await settleAll(runEnv, world.tenant.id);
    expect(await balanceOf(31337, 'erc20', xp.asset_address, customer.wallet)).toBe(0n);

    const path = `/api/v1/tenant/${world.tenant.id}/onchain-assets/${xp.id}/reconciliation`;
    const report = expectOk(await portalCall(world.tenant.owner, 'GET', path), 200, reconciliationSchema);
    expect(report).toMatchObject({ difference: '0', supply_difference: '0', customers: [] });
  });

  it('a credit whose mint is under way cannot be reversed: 409 CREDIT_SETTLING', async () => {
    const world = await newWorld('points-chain-settling');
    await deployedAsset(world, runEnv, { type: 'erc20', key: 'xp', decimals: 0, name: 'XP', symbol: 'XP' });
    const customer = await newCustomer(world);
    const credit = await earn(world, customer.id, 10);
    expect(credit.status).toBe('initialized');
    const res = await gatewayCall(world.key, 'POST', `/api/v1/gateway/internal-transactions/${credit.id}/reverse`, { body: {} });
    expectError(res, 409, 'CREDIT_SETTLING');
    await settleAll(runEnv, world.tenant.id);
    expect(await reverse(world, credit.id)).toMatchObject({ reversed: '10', unrecovered: '0' });
  });
});
