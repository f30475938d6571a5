import { createRoute, z } from '@hono/zod-openapi';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validValue, type SchemaContext } from './support/arbitraries';
import type { Operation } from './support/document';
import { resolverOf, violations, type JsonSchema } from './support/json-schema';
import { invalidValue } from './support/mutations';
import { textViolations } from './support/params';
import { urlOf, type FuzzRequest } from './support/requests';
import { judge } from './support/verdict';

/** The fuzzer's own parts, on small schemas: the checker, the generators and the verdict. */
const components: Record<string, JsonSchema> = {
  Amount: { type: 'string', pattern: '^[1-9]\\d{0,8}$' },
  Body: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 5 },
      kind: { type: 'string', enum: ['a', 'b'] },
      amount: { $ref: '#/components/schemas/Amount' },
      stock: { type: ['integer', 'null'], minimum: 0, maximum: 10 },
      email: { type: 'string', format: 'email' },
      when: { anyOf: [{ type: 'string', format: 'date' }, { type: 'string', format: 'date-time' }] },
      tags: { type: 'array', items: { type: 'string', maxLength: 3 }, maxItems: 2, uniqueItems: true },
      values: { type: 'object', additionalProperties: { type: ['string', 'number'] }, minProperties: 1 },
    },
    required: ['name', 'amount'],
    additionalProperties: false,
  },
};
const resolve = resolverOf(components);
const ctx: SchemaContext = { resolve, hints: {} };
const body: JsonSchema = { $ref: '#/components/schemas/Body' };

describe('violations (the document checker)', () => {
  it('accepts a value that keeps every rule', () => {
    const value = { name: 'Ada', amount: '150', stock: null, when: '2026-01-31', tags: ['x'], values: { a: 1 } };
    expect(violations(body, value, resolve)).toEqual([]);
  });

  it.each([
    [{ amount: '1' }, '$.name: required'],
    [{ name: '', amount: '1' }, '$.name: shorter than 1'],
    [{ name: 'abcdef', amount: '1' }, '$.name: longer than 5'],
    [{ name: 'a', amount: '0' }, '$.amount: does not match ^[1-9]\\d{0,8}$'],
    [{ name: 'a', amount: 1 }, '$.amount: type integer is not string'],
    [{ name: 'a', amount: '1', kind: 'c' }, '$.kind: not one of ["a","b"]'],
    [{ name: 'a', amount: '1', stock: 11 }, '$.stock: above 10'],
    [{ name: 'a', amount: '1', stock: 1.5 }, '$.stock: type number is not integer|null'],
    [{ name: 'a', amount: '1', email: 'no-at-sign' }, '$.email: not a email'],
    [{ name: 'a', amount: '1', email: '.@o.V.1dwG9.V1.a8R0uxJ2-i' }, '$.email: not a email'],
    [{ name: 'a', amount: '1', email: 'jane..doe@example.com' }, '$.email: not a email'],
    [{ name: 'a', amount: '1', email: 'jane@example-.com' }, '$.email: not a email'],
    [{ name: 'a', amount: '1', tags: ['a', 'a'] }, '$.tags: items not unique'],
    [{ name: 'a', amount: '1', when: '2026-02-30' }, '$.when: matches no anyOf branch'],
    [{ name: 'a', amount: '1', tags: ['a', 'b', 'c'] }, '$.tags: more than 2 items'],
    [{ name: 'a', amount: '1', tags: ['long'] }, '$.tags[0]: longer than 3'],
    [{ name: 'a', amount: '1', values: {} }, '$.values: fewer than 1 properties'],
    [{ name: 'a', amount: '1', values: { a: true } }, '$.values.a: type boolean is not string|number'],
    [{ name: 'a', amount: '1', extra: 1 }, '$.extra: not allowed'],
  ])('%j breaks %s', (value, expected) => {
    expect(violations(body, value, resolve)).toContain(expected);
  });

  it('reads format email as RFC 5321 Mailbox: quoted local parts and address literals are addresses too', () => {
    for (const email of ['"jane doe"@example.com', 'jane@[192.0.2.1]', 'a!#$%&*/=?^`{|}~@example.com', 'jane@localhost']) {
      expect(violations(body, { name: 'a', amount: '1', email }, resolve), email).toEqual([]);
    }
  });

  it('counts lengths in code points, as JSON Schema does (zod counts UTF-16 units)', () => {
    expect(violations(body, { name: '😀😀😀😀😀', amount: '1' }, resolve)).toEqual([]);
  });

  it('reads parameter texts as their type: an integer text within its bounds, nothing else', () => {
    const page = { type: 'integer', minimum: 1, maximum: 9007199254740991 } as const;
    expect(textViolations(page, '12', resolve)).toEqual([]);
    for (const text of ['0', '1.5', 'abc', '', ' 1', '9007199254740993']) expect(textViolations(page, text, resolve), text).not.toEqual([]);
  });
});

describe('generators', () => {
  it('generate only valid values, and only invalid ones for the mutations', () => {
    fc.assert(fc.property(validValue(body, ctx), (value) => violations(body, value, resolve).length === 0), { numRuns: 200, seed: 1 });
    fc.assert(fc.property(invalidValue(body, ctx), (value) => violations(body, value, resolve).length > 0), { numRuns: 200, seed: 1 });
  });

  it('offer the values of a hint by field name', () => {
    const hinted: SchemaContext = { resolve, hints: { name: fc.constant('Real') } };
    const names = fc.sample(validValue(body, hinted), { numRuns: 100, seed: 2 }).map((value) => (value as { name: string }).name);
    expect(names).toContain('Real');
  });

  it('encode every parameter so the URL is already in the form the Worker parses', () => {
    const url = urlOf('/api/v1/x/{id}', { id: "a/b c'(" }, { q: "it's *" });
    expect(url).toBe('/api/v1/x/a%2Fb%20c%27%28?q=it%27s%20%2A');
    expect(new URL(url, 'https://x.test').pathname + new URL(url, 'https://x.test').search).toBe(url);
  });
});

describe('judge (the verdict on one exchange)', () => {
  const route = createRoute({
    method: 'post',
    path: '/api/v1/things',
    request: { body: { content: { 'application/json': { schema: z.strictObject({ name: z.string().min(1) }) } } } },
    responses: { 201: { description: 'ok', content: { 'application/json': { schema: z.strictObject({ success: z.literal(true), data: z.null() }) } } } },
  });
  const op: Operation = {
    id: 'POST /things',
    method: 'POST',
    path: '/api/v1/things',
    surface: 'public',
    parameters: [],
    body: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false },
    responses: new Map([[201, { type: 'object' }]]),
    descriptions: new Map([[201, 'Created']]),
    route,
  };
  const request: FuzzRequest = { kind: 'valid', params: {}, query: {}, headers: {}, body: { json: { name: '' } } };
  const exchange = (status: number, payload: unknown, overrides: Partial<Parameters<typeof judge>[0]> = {}) =>
    judge({
      op,
      request,
      response: { status, headers: new Headers({ 'content-type': 'application/json' }), body: payload, text: JSON.stringify(payload) },
      changed: [],
      worldTenantId: 'ten_world',
      foreignIds: new Set(),
      signatureReused: false,
      resolve,
      ...overrides,
    });
  const refusal = { success: false, data: null, errors: [{ path: 'name', message: 'Too small' }], message: 'Invalid', error: { code: 'VALIDATION_FAILED', message: 'Invalid', request_id: 'req_x' } };

  it('passes a documented response that matches its schemas', () => {
    expect(exchange(201, { success: true, data: null })).toEqual([]);
  });

  it('flags a 5xx, an undocumented status, an unlisted field and a stored refused write', () => {
    expect(exchange(500, refusal).join('\n')).toMatch(/answered 500[\s\S]*status 500 is not documented/);
    expect(exchange(201, { success: true, data: null, extra: 1 }).join('\n')).toMatch(/zod schema for 201/);
    expect(exchange(409, refusal, { changed: ['rewards'] }).join('\n')).toMatch(/refused write stored something \(changed: rewards\)/);
  });

  it('takes a refinement the document states in prose as a business rule, and one it does not as a disagreement', () => {
    const refined = createRoute({
      ...route,
      request: { body: { content: { 'application/json': { schema: z.strictObject({ name: z.string().refine((name) => name !== 'x', 'Not x') }) } } } },
    });
    const named = (description?: string): Operation => ({
      ...op,
      route: refined,
      body: { type: 'object', properties: { name: { type: 'string', description } }, additionalProperties: false },
    });
    const refusedX = { request: { ...request, body: { json: { name: 'x' } } } };
    expect(exchange(422, refusal, { ...refusedX, op: named('Anything but "x"') }).join('\n')).not.toMatch(/document allows/);
    expect(exchange(422, refusal, { ...refusedX, op: named() }).join('\n')).toMatch(/the document allows what the route's schema refuses \(body: name: Not x\)/);
  });

  it('flags a refusal of what the document allows, and an acceptance of what it forbids', () => {
    expect(exchange(422, refusal).join('\n')).toMatch(/the document allows what the route's schema refuses \(body: name: /);
    const forbidden: FuzzRequest = { ...request, kind: 'invalid-body', breaks: 'body' };
    expect(exchange(201, { success: true, data: null }, { request: forbidden }).join('\n')).toMatch(/accepted a request the document forbids/);
  });
});
