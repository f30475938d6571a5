import { describe, expect, it } from 'vitest';
import { ID_PATTERN } from '../../src/schemas/common';
import { fetchDocument, operations, type Operation } from '../support/openapi';

/**
 * Every operation documents every status it can answer (issue 9, "The document must be the truth").
 * The runtime side of each rule has its own tests (errors.test.ts, idempotency, auth, parameter bounds).
 */
const WRITES = new Set(['post', 'put', 'patch', 'delete']);

const statusesOf = (op: Operation) => Object.keys(op.responses).map(Number);
const takes = (op: Operation, location: 'path' | 'query') => (op.parameters ?? []).some((parameter) => parameter.in === location);

async function allOperations() {
  const { doc } = await fetchDocument();
  const all = operations(doc).map((entry) => ({ ...entry, where: `${entry.method.toUpperCase()} ${entry.path}` }));
  expect(all.length).toBeGreaterThan(50);
  return all;
}

describe('documented statuses', () => {
  it('every operation documents 500, and 503 (environment checked) except GET /info', async () => {
    for (const { path, op, where } of await allOperations()) {
      expect(statusesOf(op), where).toContain(500);
      if (path === '/info') expect(statusesOf(op), where).not.toContain(503);
      else expect(statusesOf(op), where).toContain(503);
    }
  });

  it('every authenticated operation documents 401', async () => {
    const authenticated = (await allOperations()).filter(({ op }) => (op.security ?? []).length > 0);
    expect(authenticated.length).toBeGreaterThan(50);
    for (const { op, where } of authenticated) expect(statusesOf(op), where).toContain(401);
  });

  it('every write documents 413; a write with a JSON body also 400 (malformed), 415 and 422', async () => {
    const writes = (await allOperations()).filter(({ method }) => WRITES.has(method));
    for (const { op, where } of writes) {
      expect(statusesOf(op), where).toContain(413);
      if (op.requestBody?.content['application/json'] === undefined) continue;
      expect(statusesOf(op), where).toEqual(expect.arrayContaining([400, 415, 422]));
      expect(op.responses['400']?.description, where).toMatch(/MALFORMED_REQUEST/);
    }
  });

  it('every gateway write documents the idempotency outcomes: 400 key required, 409 in use, 422 reused', async () => {
    const gatewayWrites = (await allOperations()).filter(({ path, method }) => path.startsWith('/gateway/') && WRITES.has(method));
    expect(gatewayWrites.length).toBe(6);
    for (const { op, where } of gatewayWrites) {
      expect(op.responses['400']?.description, where).toMatch(/IDEMPOTENCY_KEY_REQUIRED/);
      expect(op.responses['409']?.description, where).toMatch(/IDEMPOTENCY_KEY_IN_USE/);
      expect(op.responses['422']?.description, where).toMatch(/IDEMPOTENCY_KEY_REUSED/);
    }
  });

  it('every portal write documents 403 (each checks the role)', async () => {
    const portalWrites = (await allOperations()).filter(({ path, method }) => path.startsWith('/tenant/') && WRITES.has(method));
    for (const { op, where } of portalWrites) expect(statusesOf(op), where).toContain(403);
  });

  it('an operation with a path id documents 404 and 422; one with query parameters 422', async () => {
    for (const { op, where } of await allOperations()) {
      if (takes(op, 'path')) expect(statusesOf(op), where).toEqual(expect.arrayContaining([404, 422]));
      if (takes(op, 'query')) expect(statusesOf(op), where).toContain(422);
    }
  });

  it('every authenticated operation documents 429 RATE_LIMITED with its headers; one without credentials is never limited', async () => {
    for (const { op, where } of await allOperations()) {
      if ((op.security ?? []).length === 0) {
        expect(statusesOf(op), where).not.toContain(429);
        continue;
      }
      const limited = op.responses['429'];
      expect(limited?.description, where).toMatch(/RATE_LIMITED/);
      expect(limited?.headers, where).toEqual({ 'Retry-After': expect.anything(), RateLimit: expect.anything(), 'RateLimit-Policy': expect.anything(), 'X-Request-Id': expect.anything() });
    }
  });

  it('documents no status the API cannot answer: no 405 (not per operation)', async () => {
    for (const { op, where } of await allOperations()) expect(statusesOf(op), where).not.toContain(405);
  });

  it('every path parameter is an id of the one documented pattern; every query parameter is bounded', async () => {
    for (const { op, where } of await allOperations()) {
      for (const parameter of op.parameters ?? []) {
        const schema = parameter.schema ?? {};
        const what = `${where} ${parameter.name} ${JSON.stringify(schema)}`;
        if (parameter.in === 'path') expect(schema.pattern, what).toBe(ID_PATTERN.source);
        // A pattern bounds the length only as `^[class]{m,n}$`.
        const boundedPattern = typeof schema.pattern === 'string' && /^\^\[[^\]]+\]\{\d+,\d+\}\$$/.test(schema.pattern);
        const bounded = boundedPattern || ['enum', 'maxLength', 'maximum', 'anyOf'].some((bound) => bound in schema);
        if (parameter.in === 'query') expect(bounded, what).toBe(true);
      }
    }
  });
});
