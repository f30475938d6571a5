import { expect } from 'vitest';
import { z } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { customers, type AttributeType, type CustomerStatus } from '../../src/db/schema';
import { createCustomer } from './ledger';
import { pageSchema } from '../../src/lib/paging';
import { attributeCreatedSchema, attributeValueEntrySchema } from '../../src/schemas/attribute';
import { cohortSchema, type CohortView } from '../../src/schemas/cohort';
import { customerSchema } from '../../src/schemas/customer';
import { expectOk } from './http';
import { db, portalCall, type TestMember } from './world';

/** Fixtures of the attribute and cohort tests (customers are not their subject; tiers: `insertTier` of ./rewards). */

export type CustomerFixture = {
  status?: CustomerStatus;
  countryCode?: string | null;
  xpBalance?: number;
  lifetimeXp?: number;
};

/** A customer inserted through the data layer, balances set directly (fixtures only). */
export async function insertCustomer(tenantId: string, fixture: CustomerFixture = {}): Promise<string> {
  const id = await createCustomer(tenantId, { status: fixture.status, countryCode: fixture.countryCode, username: null, email: null });
  const xpBalance = fixture.xpBalance ?? 0;
  const lifetimeXp = fixture.lifetimeXp ?? xpBalance;
  if (xpBalance !== 0 || lifetimeXp !== 0) await db(tenantId).update(customers).set({ xpBalance, lifetimeXp }).where(eq(customers.id, id));
  return id;
}

export const tenantPath = (tenantId: string, rest: string) => `/api/v1/tenant/${tenantId}${rest}`;

export async function defineAttribute(member: TestMember, tenantId: string, key: string, type: AttributeType): Promise<string> {
  const res = await portalCall(member, 'POST', tenantPath(tenantId, '/attributes'), { key, type });
  return expectOk(res, 201, attributeCreatedSchema).id;
}

export async function setValues(member: TestMember, tenantId: string, customerId: string, values: Record<string, unknown>) {
  const res = await portalCall(member, 'PUT', tenantPath(tenantId, `/customers/${customerId}/attributes`), { values });
  return expectOk(res, 200, z.array(attributeValueEntrySchema));
}

export type PredicateInput = { type: string; key?: string; op: string; value?: string };

export function rulesOf(operator: 'and' | 'or', ...predicates: PredicateInput[]) {
  return { operator, predicates, version: 1 };
}

export async function createCohort(member: TestMember, tenantId: string, rules: unknown, name = 'Cohort'): Promise<CohortView> {
  const res = await portalCall(member, 'POST', tenantPath(tenantId, '/cohorts'), { name, rules });
  return expectOk(res, 201, cohortSchema);
}

/** Every member id of a cohort (all pages), checked against the page totals and `member_count`. */
export async function memberIds(member: TestMember, tenantId: string, cohortId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page += 1) {
    const res = await portalCall(member, 'GET', tenantPath(tenantId, `/cohorts/${cohortId}/members?limit=100&page=${page}`));
    const data = expectOk(res, 200, pageSchema(customerSchema));
    ids.push(...data.items.map((item) => item.id));
    if (!data.has_next_page) {
      expect(ids.length).toBe(data.total_count);
      break;
    }
  }
  const cohort = expectOk(await portalCall(member, 'GET', tenantPath(tenantId, `/cohorts/${cohortId}`)), 200, cohortSchema);
  expect(cohort.member_count).toBe(ids.length);
  return ids.sort();
}
