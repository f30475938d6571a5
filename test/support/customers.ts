import { expect } from 'vitest';
import { ledgerEntryStatements } from '../../src/data/ledger-entries';
import type { TransactionType } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { customerSchema, type CustomerView } from '../../src/schemas/customer';
import { tierRuleSchema, type TierRuleView } from '../../src/schemas/tier';
import { expectOk } from './http';
import { db, gatewayCall, portalCall, type TestApiKey, type TestMember } from './world';

/** Creates a customer through `POST /gateway/customers` (201), with a fresh external id by default. */
export async function createCustomerViaApi(key: TestApiKey, body: Record<string, unknown> = {}): Promise<CustomerView> {
  const res = await gatewayCall(key, 'POST', '/api/v1/gateway/customers', { body: { external_id: newId('ext'), ...body } });
  return expectOk(res, 201, customerSchema);
}

/** Appends one completed ledger entry through the only balance writer (src/data/ledger.ts). */
export async function addXp(tenantId: string, userId: string, amount: number, type: TransactionType = 'xp_earn') {
  await db(tenantId).batch([...ledgerEntryStatements(db(tenantId), { id: newId('itx'), mirrorOperationId: newId('op'), tenantId, userId, type, amount }, new Date().toISOString())]);
}

/** Creates a tier rule through `POST /tenant/{t}/tiers` (201). */
export async function createTierViaApi(member: TestMember, tenantId: string, tierName: string, minXpThreshold: number): Promise<TierRuleView> {
  const res = await portalCall(member, 'POST', `/api/v1/tenant/${tenantId}/tiers`, { tier_name: tierName, min_xp_threshold: minXpThreshold });
  const tier = expectOk(res, 201, tierRuleSchema);
  expect(tier.tier_name).toBe(tierName);
  return tier;
}
