import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { call } from './support/http';
import { fetchDocument, operations } from './support/openapi';

const gatewayRequirement = { gatewayKey: [], gatewayTimestamp: [], gatewaySignature: [] };

describe('OpenAPI document', () => {
  it('is an OpenAPI 3.1 document with the portal bearer and the three gateway header schemes', async () => {
    const { doc } = await fetchDocument();
    expect(doc.servers.map((server) => server.url)).toEqual(['/api/v1']);
    expect(doc.components.securitySchemes).toMatchObject({
      portalBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      gatewayKey: { type: 'apiKey', in: 'header', name: 'x-tenant-key' },
      gatewayTimestamp: { type: 'apiKey', in: 'header', name: 'x-tenant-timestamp' },
      gatewaySignature: { type: 'apiKey', in: 'header', name: 'x-tenant-signature' },
    });
  });

  it('is internally consistent: path parameters declared, refs resolved, security schemes defined', async () => {
    const { doc, text } = await fetchDocument();
    for (const { path, method, op } of operations(doc)) {
      const where = `${method.toUpperCase()} ${path}`;
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path');
      expect(declared.map((p) => p.name).sort(), where).toEqual(templated);
      expect(declared.every((p) => p.required === true), where).toBe(true);
      expect(Object.keys(op.responses).length, where).toBeGreaterThan(0);
      for (const requirement of op.security ?? []) {
        for (const scheme of Object.keys(requirement)) expect(doc.components.securitySchemes, where).toHaveProperty(scheme);
      }
    }
    const refs = [...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const name of refs) expect(doc.components.schemas, `$ref ${name}`).toHaveProperty(name);
  });

  it('names every operation with a unique camelCase operationId, gateway ones prefixed (the SDK method names)', async () => {
    const { doc } = await fetchDocument();
    // Counted from the app's route registry, not from the document's paths: an operation missing
    // from the document, or one without an id, makes the counts differ.
    const routes = createApp().openAPIRegistry.definitions.filter((definition) => definition.type === 'route');
    const documented = operations(doc);
    expect(routes.length).toBeGreaterThan(0);
    expect(documented.length).toBe(routes.length);
    const missing = documented.filter(({ op }) => op.operationId === undefined).map(({ path, method }) => `${method.toUpperCase()} ${path}`);
    expect(missing).toEqual([]);
    const ids = documented.flatMap(({ op }) => (op.operationId === undefined ? [] : [op.operationId]));
    expect(ids).toHaveLength(routes.length);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index), 'duplicated ids').toEqual([]);
    for (const { path, method, op } of documented) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(op.operationId?.startsWith('gateway'), where).toBe(path.startsWith('/gateway/'));
    }
  });

  it('answers every error status with the ErrorEnvelope, and documents 500 everywhere', async () => {
    const { doc } = await fetchDocument();
    for (const { path, method, op } of operations(doc)) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.responses, where).toHaveProperty('500');
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        expect(response.content?.['application/json']?.schema.$ref, `${where} ${status}`).toBe('#/components/schemas/ErrorEnvelope');
      }
    }
    expect(doc.components.schemas.ErrorEnvelope).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['success', 'data', 'errors', 'message', 'error']),
      properties: { error: { required: ['code', 'message', 'request_id'], properties: { request_id: { type: 'string' } } } },
    });
  });

  it('documents the X-Request-Id header on every response, success and failure, as one component', async () => {
    const { doc } = await fetchDocument();
    const header = { $ref: '#/components/headers/RequestId' };
    let responses = 0;
    for (const { path, method, op } of operations(doc)) {
      for (const [status, response] of Object.entries(op.responses)) {
        expect(response.headers?.['X-Request-Id'], `${method.toUpperCase()} ${path} ${status}`).toEqual(header);
        responses += 1;
      }
    }
    expect(responses).toBeGreaterThan(500);
    expect(doc.components.headers?.RequestId?.description).toMatch(/error\.request_id/);
  });

  it('secures every gateway operation with the three headers together and every tenant operation with the bearer', async () => {
    const { doc } = await fetchDocument();
    for (const { path, method, op } of operations(doc)) {
      const where = `${method.toUpperCase()} ${path}`;
      if (path.startsWith('/gateway/')) expect(op.security, where).toEqual([gatewayRequirement]);
      if (path.startsWith('/tenant/')) expect(op.security, where).toEqual([{ portalBearer: [] }]);
    }
  });

  it('describes the API key routes, with the secret only in the create response', async () => {
    const { doc } = await fetchDocument();
    const keys = doc.paths['/tenant/{tenantId}/api-keys'];
    const revoke = doc.paths['/tenant/{tenantId}/api-keys/{id}/revoke'];
    expect(keys?.get?.responses).toHaveProperty('403');
    expect(keys?.get?.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['status', 'page', 'limit']));
    expect(keys?.post?.responses).toHaveProperty('201');
    expect(revoke?.post?.responses).toHaveProperty('200');
    expect(doc.paths['/gateway/internal-transactions/{internal_transaction_id}']?.get?.responses).toHaveProperty('401');
    const record = z.looseObject({ properties: z.record(z.string(), z.unknown()), additionalProperties: z.literal(false) });
    expect(Object.keys(record.parse(doc.components.schemas.ApiKey).properties)).not.toContain('secret');
    expect(Object.keys(record.parse(doc.components.schemas.CreatedApiKey).properties)).toContain('secret');
  });

  it('serves the interactive docs as HTML', async () => {
    const res = await call('GET', '/api/v1/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.text).toMatch(/swagger/i);
    expect(res.text).toContain('/api/v1/openapi.json');
  });
});
