import { describe, expect, it } from 'vitest';
import { z } from '@hono/zod-openapi';
import { attributeValueEntrySchema } from '../../src/schemas/attribute';
import { expectError, expectOk } from '../support/http';
import { defineAttribute, insertCustomer, setValues, tenantPath } from '../support/segments';
import { addMember, createTenant, createTestApiKey, gatewayCall, otherTenants, portalCall, type TestTenant } from '../support/world';

const entries = z.array(attributeValueEntrySchema);
const valuesPath = (tenantId: string, customerId: string) => tenantPath(tenantId, `/customers/${customerId}/attributes`);

/** A tenant with one definition of every type and a customer. */
async function world() {
  const tenant = await createTenant();
  const ids = {
    nickname: await defineAttribute(tenant.owner, tenant.id, 'nickname', 'string'),
    shoe_size: await defineAttribute(tenant.owner, tenant.id, 'shoe_size', 'number'),
    newsletter: await defineAttribute(tenant.owner, tenant.id, 'newsletter', 'boolean'),
    birthday: await defineAttribute(tenant.owner, tenant.id, 'birthday', 'date'),
    last_seen: await defineAttribute(tenant.owner, tenant.id, 'last_seen', 'datetime'),
    tags: await defineAttribute(tenant.owner, tenant.id, 'tags', 'string_list'),
  };
  const customer = await insertCustomer(tenant.id);
  return { tenant, ids, customer };
}

const valueOf = (list: z.infer<typeof entries>, key: string) => list.find((entry) => entry.key === key)?.value;

async function getValues(tenant: TestTenant, customerId: string) {
  return expectOk(await portalCall(tenant.owner, 'GET', valuesPath(tenant.id, customerId)), 200, entries);
}

describe('GET /tenant/{t}/customers/{customer_id}/attributes', () => {
  it('returns one entry per definition, ordered by key, value null where unset', async () => {
    const { tenant, ids, customer } = await world();
    const viewer = await addMember(tenant.id, 'viewer');
    const list = expectOk(await portalCall(viewer, 'GET', valuesPath(tenant.id, customer)), 200, entries);
    expect(list).toEqual([
      { definition_id: ids.birthday, key: 'birthday', type: 'date', value: null },
      { definition_id: ids.last_seen, key: 'last_seen', type: 'datetime', value: null },
      { definition_id: ids.newsletter, key: 'newsletter', type: 'boolean', value: null },
      { definition_id: ids.nickname, key: 'nickname', type: 'string', value: null },
      { definition_id: ids.shoe_size, key: 'shoe_size', type: 'number', value: null },
      { definition_id: ids.tags, key: 'tags', type: 'string_list', value: null },
    ]);
  });

  it('answers 404 for a customer of another tenant (on another shard and on the same one) or no customer at all', async () => {
    const { tenant, customer } = await world();
    for (const other of await otherTenants(tenant.id)) {
      expectError(await portalCall(other.owner, 'GET', valuesPath(other.id, customer)), 404, 'NOT_FOUND', 'Customer not found');
      expectError(await portalCall(other.owner, 'GET', valuesPath(other.id, 'cus_missing')), 404, 'NOT_FOUND', 'Customer not found');
    }
  });
});

describe('PUT /tenant/{t}/customers/{customer_id}/attributes', () => {
  it('sets values of every type and renders them as strings', async () => {
    const { tenant, customer } = await world();
    const after = await setValues(tenant.owner, tenant.id, customer, {
      nickname: 'Bo',
      shoe_size: 42.5,
      newsletter: true,
      birthday: '1990-02-28',
      last_seen: '2024-05-01T12:30:00+02:00',
      tags: ['vip', 'early'],
    });
    expect(after).toEqual(await getValues(tenant, customer));
    expect(Object.fromEntries(after.map((entry) => [entry.key, entry.value]))).toEqual({
      nickname: 'Bo',
      shoe_size: '42.5',
      newsletter: 'true',
      birthday: '1990-02-28',
      last_seen: '2024-05-01T10:30:00.000Z',
      tags: '["vip","early"]',
    });
  });

  it('accepts the rendered string forms back (round trip)', async () => {
    const { tenant, customer } = await world();
    const after = await setValues(tenant.owner, tenant.id, customer, { shoe_size: '-3', newsletter: 'false', tags: '["a"]', last_seen: '2024-05-01T10:30:00.000Z' });
    expect(valueOf(after, 'shoe_size')).toBe('-3');
    expect(valueOf(after, 'newsletter')).toBe('false');
    expect(valueOf(after, 'tags')).toBe('["a"]');
    expect(valueOf(after, 'last_seen')).toBe('2024-05-01T10:30:00.000Z');
  });

  it('changes only the keys sent, and null clears a value', async () => {
    const { tenant, customer } = await world();
    await setValues(tenant.owner, tenant.id, customer, { nickname: 'Bo', shoe_size: 40 });
    const after = await setValues(tenant.owner, tenant.id, customer, { nickname: null, shoe_size: 41 });
    expect(valueOf(after, 'nickname')).toBeNull();
    expect(valueOf(after, 'shoe_size')).toBe('41');
    expect(await getValues(tenant, customer)).toEqual(after);
  });

  it.each([
    ['nickname', 42, 'Expected a string'],
    ['nickname', 'x'.repeat(1025), 'at most 1024'],
    ['shoe_size', 'forty', 'Expected a number'],
    ['shoe_size', true, 'Expected a number'],
    ['newsletter', 'yes', 'Expected a boolean'],
    ['newsletter', 1, 'Expected a boolean'],
    ['birthday', '2023-02-29', 'calendar date'],
    ['birthday', '01/02/2023', 'YYYY-MM-DD'],
    ['last_seen', '2024-05-01T12:30:00', 'with an offset'],
    ['last_seen', '2024-05-01', 'with an offset'],
    ['last_seen', '2024-02-30T10:00:00Z', 'real calendar datetime'],
    ['tags', ['a', 1], 'array of strings'],
    ['tags', 'vip', 'array of strings'],
  ])('answers 422 at values.%s for %j', async (key, value, message) => {
    const { tenant, customer } = await world();
    const res = await portalCall(tenant.owner, 'PUT', valuesPath(tenant.id, customer), { values: { [key]: value } });
    const body = expectError(res, 422, 'VALIDATION_FAILED');
    expect(body.errors).toEqual([{ path: `values.${key}`, message: expect.stringContaining(message) }]);
  });

  it('reports every bad key and writes nothing when one is bad', async () => {
    const { tenant, customer } = await world();
    const res = await portalCall(tenant.owner, 'PUT', valuesPath(tenant.id, customer), {
      values: { nickname: 'ok', shoe_size: 'big', unknown_key: 'x', "a' OR 1=1 --": 'x' },
    });
    const body = expectError(res, 422, 'VALIDATION_FAILED');
    expect(body.errors.map((e) => e.path).sort()).toEqual(["values.a' OR 1=1 --", 'values.shoe_size', 'values.unknown_key']);
    expect(body.errors.find((e) => e.path === 'values.unknown_key')?.message).toBe('Attribute "unknown_key" is not defined');
    expect(valueOf(await getValues(tenant, customer), 'nickname')).toBeNull();
  });

  it('answers 422 for an empty values object, a non-object and unknown fields', async () => {
    const { tenant, customer } = await world();
    const path = valuesPath(tenant.id, customer);
    expectError(await portalCall(tenant.owner, 'PUT', path, { values: {} }), 422, 'VALIDATION_FAILED');
    expectError(await portalCall(tenant.owner, 'PUT', path, { values: ['x'] }), 422, 'VALIDATION_FAILED');
    expect(expectError(await portalCall(tenant.owner, 'PUT', path, { values: { nickname: 'a' }, extra: 1 }), 422, 'VALIDATION_FAILED').errors).toEqual([
      { path: 'extra', message: 'Unknown field' },
    ]);
  });

  it('stores SQL-looking values as plain data', async () => {
    const { tenant, customer } = await world();
    const sneaky = "x'); DELETE FROM customer_attribute_values; --";
    const after = await setValues(tenant.owner, tenant.id, customer, { nickname: sneaky, tags: [sneaky, '%'] });
    expect(valueOf(after, 'nickname')).toBe(sneaky);
    expect(JSON.parse(valueOf(after, 'tags') ?? '[]')).toEqual([sneaky, '%']);
    expect(valueOf(await getValues(tenant, customer), 'nickname')).toBe(sneaky);
  });

  it('answers 404 for a customer of another tenant (on another shard and on the same one), writing nothing', async () => {
    const { tenant, customer } = await world();
    for (const other of await otherTenants(tenant.id)) {
      await defineAttribute(other.owner, other.id, 'nickname', 'string');
      expectError(await portalCall(other.owner, 'PUT', valuesPath(other.id, customer), { values: { nickname: 'x' } }), 404, 'NOT_FOUND');
      expect(valueOf(await getValues(tenant, customer), 'nickname')).toBeNull();
    }
  });

  it('refuses a viewer (403) and accepts an editor', async () => {
    const { tenant, customer } = await world();
    const viewer = await addMember(tenant.id, 'viewer');
    const editor = await addMember(tenant.id, 'editor');
    expectError(await portalCall(viewer, 'PUT', valuesPath(tenant.id, customer), { values: { nickname: 'x' } }), 403, 'FORBIDDEN');
    expectOk(await portalCall(editor, 'PUT', valuesPath(tenant.id, customer), { values: { nickname: 'x' } }), 200, entries);
  });
});

describe('PUT /gateway/customers/{userId}/attributes', () => {
  it('sets values like the portal does and answers the entries', async () => {
    const { tenant, customer } = await world();
    const key = await createTestApiKey(tenant.id);
    const res = await gatewayCall(key, 'PUT', `/api/v1/gateway/customers/${customer}/attributes`, { body: { values: { shoe_size: 44, tags: ['x'] } } });
    const data = expectOk(res, 200, entries);
    expect(valueOf(data, 'shoe_size')).toBe('44');
    expect(valueOf(data, 'tags')).toBe('["x"]');
    expect(await getValues(tenant, customer)).toEqual(data);
  });

  it('answers 422 at values.<key> for a value of the wrong type', async () => {
    const { tenant, customer } = await world();
    const key = await createTestApiKey(tenant.id);
    const res = await gatewayCall(key, 'PUT', `/api/v1/gateway/customers/${customer}/attributes`, { body: { values: { birthday: 'yesterday' } } });
    expect(expectError(res, 422, 'VALIDATION_FAILED').errors).toEqual([{ path: 'values.birthday', message: expect.stringContaining('YYYY-MM-DD') }]);
  });

  it('answers 404 for a customer of another tenant (on another shard and on the same one)', async () => {
    const { tenant, customer } = await world();
    for (const other of await otherTenants(tenant.id)) {
      await defineAttribute(other.owner, other.id, 'nickname', 'string');
      const key = await createTestApiKey(other.id);
      const res = await gatewayCall(key, 'PUT', `/api/v1/gateway/customers/${customer}/attributes`, { body: { values: { nickname: 'x' } } });
      expectError(res, 404, 'NOT_FOUND', 'Customer not found');
    }
    expect(valueOf(await getValues(tenant, customer), 'nickname')).toBeNull();
    expectError(await gatewayCall(await createTestApiKey(tenant.id), 'PUT', '/api/v1/gateway/customers/cus_missing/attributes', { body: { values: { nickname: 'x' } } }), 404, 'NOT_FOUND', 'Customer not found');
  });

  it('writes nothing when one value is bad, and answers 422 for an unknown field', async () => {
    const { tenant, customer } = await world();
    const key = await createTestApiKey(tenant.id);
    const path = `/api/v1/gateway/customers/${customer}/attributes`;
    const body = expectError(await gatewayCall(key, 'PUT', path, { body: { values: { nickname: 'ok', ghost: 1 } } }), 422, 'VALIDATION_FAILED');
    expect(body.errors).toEqual([{ path: 'values.ghost', message: 'Attribute "ghost" is not defined' }]);
    expect(valueOf(await getValues(tenant, customer), 'nickname')).toBeNull();
    const extra = expectError(await gatewayCall(key, 'PUT', path, { body: { values: { nickname: 'a' }, user_id: customer } }), 422, 'VALIDATION_FAILED');
    expect(extra.errors).toEqual([{ path: 'user_id', message: 'Unknown field' }]);
  });

  it('requires X-Idempotency-Key (400) and writes nothing without it', async () => {
    const { tenant, customer } = await world();
    const key = await createTestApiKey(tenant.id);
    const res = await gatewayCall(key, 'PUT', `/api/v1/gateway/customers/${customer}/attributes`, { body: { values: { nickname: 'x' } }, idempotencyKey: null });
    const body = expectError(res, 400, 'IDEMPOTENCY_KEY_REQUIRED');
    expect(body.errors[0]?.path).toBe('X-Idempotency-Key');
    expect(valueOf(await getValues(tenant, customer), 'nickname')).toBeNull();
  });

  it('replays a retry with the same idempotency key', async () => {
    const { tenant, customer } = await world();
    const key = await createTestApiKey(tenant.id);
    const path = `/api/v1/gateway/customers/${customer}/attributes`;
    const first = await gatewayCall(key, 'PUT', path, { body: { values: { nickname: 'a' } }, idempotencyKey: 'attr-1' });
    expect(valueOf(expectOk(first, 200, entries), 'nickname')).toBe('a');
    const replay = await gatewayCall(key, 'PUT', path, { body: { values: { nickname: 'a' } }, idempotencyKey: 'attr-1' });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.text).toBe(first.text);
  });
});
