import { and, eq, notExists } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from '@hono/zod-openapi';
import { attributeDefinitions, customerAttributeValues } from '../../src/db/schema';
import { successFlagSchema } from '../../src/lib/envelope';
import { attributeValueEntrySchema } from '../../src/schemas/attribute';
import { expectError, expectOk } from '../support/http';
import { portalRequest, race } from '../support/race';
import { defineAttribute, insertCustomer, tenantPath } from '../support/segments';
import { createTenant, db } from '../support/world';

/**
 * Defect 6: deleting a definition while values of it are written must leave no value without a
 * definition. Each value write has read the definition (it exists) before the delete runs; the
 * write then lands after the delete. Held at their writes by race(), released delete first.
 */

const writeGate = /insert into "customer_attribute_values"|delete from "attribute_definitions"/i;

async function orphanValues(tenantId: string) {
  const definition = db(tenantId)
    .select({ id: attributeDefinitions.id })
    .from(attributeDefinitions)
    .where(and(eq(attributeDefinitions.tenantId, tenantId), eq(attributeDefinitions.id, customerAttributeValues.definitionId)));
  return db(tenantId).select().from(customerAttributeValues).where(and(eq(customerAttributeValues.tenantId, tenantId), notExists(definition)));
}

async function world(customerCount: number) {
  const tenant = await createTenant();
  const nickname = await defineAttribute(tenant.owner, tenant.id, 'nickname', 'string');
  await defineAttribute(tenant.owner, tenant.id, 'shoe_size', 'number');
  const customers: string[] = [];
  for (let i = 0; i < customerCount; i += 1) customers.push(await insertCustomer(tenant.id));
  const write = (customer: string, values: Record<string, unknown>) =>
    portalRequest(tenant.owner, 'PUT', tenantPath(tenant.id, `/customers/${customer}/attributes`), { values });
  const deletion = portalRequest(tenant.owner, 'DELETE', tenantPath(tenant.id, `/attributes/${nickname}`));
  return { tenant, customers, write, deletion };
}

describe('DELETE /tenant/{t}/attributes/{id} against concurrent value writes', () => {
  it('refuses every write that lands after the delete (422 at the key) and leaves no orphan value', async () => {
    const { tenant, customers, write, deletion } = await world(4);
    const writes = customers.map((customer, index) => write(customer, { nickname: `name ${index}` }));
    const { responses, held } = await race([deletion, ...writes], writeGate, { inOrder: true });
    expect(held).toBe(5);
    const [deleted, ...written] = responses;
    expect(expectOk(deleted!, 200, successFlagSchema)).toEqual({ success: true });
    for (const res of written) {
      expect(expectError(res, 422, 'VALIDATION_FAILED').errors).toEqual([{ path: 'values.nickname', message: 'Attribute "nickname" is not defined' }]);
    }
    expect(await orphanValues(tenant.id)).toEqual([]);
  });

  it('writes nothing of a batch that names the deleted key, not even its other values', async () => {
    const { tenant, customers, write, deletion } = await world(1);
    const [customer] = customers;
    const { responses, held } = await race([deletion, write(customer!, { nickname: 'late', shoe_size: 42 })], writeGate, { inOrder: true });
    expect(held).toBe(2);
    expect(expectError(responses[1]!, 422, 'VALIDATION_FAILED').errors.map((e) => e.path)).toEqual(['values.nickname']);
    const stored = await db(tenant.id).select().from(customerAttributeValues).where(eq(customerAttributeValues.tenantId, tenant.id));
    expect(stored).toEqual([]);
  });

  it('leaves no orphan value whichever lands first when all are released together', async () => {
    const { tenant, customers, write, deletion } = await world(6);
    const writes = customers.map((customer) => write(customer, { nickname: 'racer' }));
    const { responses, held } = await race([...writes, deletion], writeGate);
    expect(held).toBe(7);
    expectOk(responses[6]!, 200, successFlagSchema);
    for (const res of responses.slice(0, 6)) {
      // Before the delete: written, then deleted with the definition; after it: refused.
      if (res.status === 200) expectOk(res, 200, z.array(attributeValueEntrySchema));
      else expectError(res, 422, 'VALIDATION_FAILED', 'not valid');
    }
    expect(await orphanValues(tenant.id)).toEqual([]);
  });
});
