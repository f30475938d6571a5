import { createRoute, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { EMAIL_PATTERN } from '../../src/domain/email';
import type { Operation } from './support/document';
import { resolverOf, type JsonSchema } from './support/json-schema';
import { keywordProbes, type Fresh, type Probe } from './support/probes';
import { probeProblems } from './support/verdict';

/** The keyword probes and their verdict, on one small operation whose route and document can be made to disagree. */
const resolve = resolverOf({});
const body: JsonSchema = {
  type: 'object',
  properties: {
    stock: { type: 'integer', minimum: 0, maximum: 10 },
    chain: { type: 'integer', minimum: 1 },
    email: { type: 'string', format: 'email', pattern: EMAIL_PATTERN.source },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, uniqueItems: true, maxItems: 3 },
    labels: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, maxItems: 3 },
  },
  additionalProperties: false,
};
const header: JsonSchema = { type: 'string', pattern: '^[a-z-]{1,4}$', minLength: 1, maxLength: 4 };
const unique = (items: string[]) => new Set(items).size === items.length;
const route = createRoute({
  method: 'post',
  path: '/api/v1/things',
  request: {
    headers: z.object({ 'x-key': z.string().regex(/^[a-z-]{1,4}$/) }),
    body: {
      content: {
        'application/json': {
          schema: z.strictObject({
            stock: z.int().min(0).max(10).optional(),
            // The route refuses what the document allows: past 2^53, and a repeated label.
            chain: z.int().min(1).optional(),
            email: z.string().regex(EMAIL_PATTERN).optional(),
            tags: z.array(z.enum(['a', 'b', 'c'])).max(3).refine(unique).optional(),
            labels: z.array(z.enum(['x', 'y'])).max(3).refine(unique, 'No repeats').optional(),
          }),
        },
      },
    },
  },
  responses: { 201: { description: 'Created' } },
});
const op: Operation = {
  id: 'POST /things',
  method: 'POST',
  path: '/api/v1/things',
  surface: 'public',
  parameters: [{ name: 'x-key', in: 'header', required: true, schema: header }],
  body,
  responses: new Map([[201, undefined], [400, undefined], [422, undefined]]),
  descriptions: new Map([[201, 'Created'], [400, 'Bad request; KEY_REQUIRED when X-Key is missing or does not match its pattern'], [422, 'Validation failed']]),
  route,
};
let handedOut = 0;
const fresh: Fresh = (length) => String.fromCharCode(97 + (handedOut++ % 26)).repeat(length);
const probes = keywordProbes(op, { resolve, hints: {}, seed: 7, fresh, pinned: {} });
const at = (field: string) => probes.filter((probe) => probe.field === field);
const values = (field: string, inside: boolean) => at(field).filter((probe) => probe.inside === inside).map((probe) => probe.value);

function verdict(probe: Probe, status: number, errorAt?: string) {
  const payload = errorAt
    ? { success: false, data: null, errors: [{ path: errorAt, message: 'Invalid' }], message: 'Invalid', error: { code: 'VALIDATION_FAILED', message: 'Invalid', request_id: 'req_x' } }
    : { success: true, data: null };
  const response = { status, headers: new Headers({ 'content-type': 'application/json' }), body: payload, text: JSON.stringify(payload) };
  return probeProblems({ op, request: probe.request, response, changed: [], worldTenantId: 'ten_world', foreignIds: new Set(), signatureReused: false, resolve }, probe).join('\n');
}
const probe = (field: string, value: unknown) => {
  const found = at(field).find((candidate) => JSON.stringify(candidate.value) === JSON.stringify(value));
  if (!found) throw new Error(`no probe of ${field} with ${JSON.stringify(value)}`);
  return found;
};

describe('keyword probes', () => {
  it('try every stated bound just inside and just outside, and an integer without a maximum past 2^53', () => {
    expect(values('stock', true)).toEqual([0, 10]);
    expect(values('stock', false)).toEqual([-1, 11]);
    expect(values('chain', true)).toEqual([1, 2 ** 53]);
    expect(values('chain', false)).toEqual([0]);
  });

  it('try a format with ordinary values and with what its pattern allows but the format does not', () => {
    expect(values('email', true)).toEqual(expect.arrayContaining(["o'brien@example.com", 'jane.doe+tag@example.co.uk']));
    expect(values('email', false)).toEqual(expect.arrayContaining(['.jane@example.com', 'jane@example-.com']));
    expect(at('email').filter((p) => !p.inside).every((p) => p.breaks.length > 0)).toBe(true);
  });

  it('send a duplicate where uniqueItems is stated, and where it is not, a duplicate with the array it came from', () => {
    const [duplicate] = at('tags');
    expect(duplicate).toMatchObject({ keyword: 'uniqueItems', inside: false });
    const [repeated] = at('labels');
    expect(repeated).toMatchObject({ keyword: 'no uniqueItems', inside: true });
    expect(repeated?.withoutDuplicate).toHaveLength(1);
    const label = repeated?.withoutDuplicate?.[0];
    expect(repeated?.value).toEqual([label, label]);
  });

  it('try a header at its lengths and past the edges of its characters, with fresh values inside', () => {
    const outside = values('x-key', false).map(String);
    expect(outside).toContain('');
    expect(outside.some((value) => value.startsWith('café-'))).toBe(true);
    expect(outside.some((value) => value.includes('\t'))).toBe(true);
    const inside = values('x-key', true);
    expect(inside.length).toBeGreaterThan(1);
    expect(new Set(inside).size).toBe(inside.length);
  });
});

describe('probe verdicts', () => {
  it('an outside value must be refused with the documented status and an error at the field', () => {
    expect(verdict(probe('stock', 11), 201)).toMatch(/keyword probe at body stock \(maximum 10\) with 11: the document forbids it \(\$: above 10\) but it answered 201/);
    expect(verdict(probe('stock', 11), 422, 'name')).toMatch(/with no error at stock, expected 422 at stock/);
    expect(verdict(probe('stock', 11), 422, 'stock')).toBe('');
    // A header's status is the one whose description names it.
    expect(verdict(probe('x-key', ''), 422, 'x-key')).toMatch(/answered 422, expected 400 at x-key/);
    expect(verdict(probe('x-key', ''), 400, 'X-Key')).toBe('');
  });

  it('an inside value must pass the route\'s own validation at the field, and no header refusal', () => {
    expect(verdict(probe('stock', 10), 201)).toBe('');
    expect(verdict(probe('chain', 2 ** 53), 422, 'chain')).toMatch(/\(no maximum\) with 9007199254740992: the document allows it but the route's schema refuses it/);
    expect(verdict(probe('x-key', values('x-key', true)[0]), 400, 'x-key')).toMatch(/the document allows it but it answered 400 at x-key/);
  });

  it('a duplicate refused where the document has no uniqueItems is named for what it is', () => {
    const [repeated] = at('labels');
    if (!repeated) throw new Error('no labels probe');
    expect(verdict(repeated, 422, 'labels')).toMatch(/the document has no uniqueItems at labels but the route refuses the duplicate \(No repeats\)/);
  });
});
