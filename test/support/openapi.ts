import { z } from '@hono/zod-openapi';
import { expect } from 'vitest';
import { call } from './http';

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const responseSchema = z.looseObject({
  description: z.string(),
  content: z.record(z.string(), z.looseObject({ schema: z.looseObject({ $ref: z.string().optional() }) })).optional(),
  headers: z.record(z.string(), z.unknown()).optional(),
});
const operationSchema = z.looseObject({
  operationId: z.string().optional(),
  security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
  parameters: z
    .array(z.looseObject({ name: z.string(), in: z.enum(['path', 'query', 'header', 'cookie']), required: z.boolean().optional(), schema: z.record(z.string(), z.unknown()).optional() }))
    .optional(),
  requestBody: z.looseObject({ content: z.record(z.string(), z.unknown()) }).optional(),
  responses: z.record(z.string(), responseSchema),
});
export type Operation = z.infer<typeof operationSchema>;
const documentSchema = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string().min(1), version: z.string().min(1) }),
  servers: z.array(z.looseObject({ url: z.string() })),
  paths: z.record(z.string().regex(/^\//), z.looseObject(Object.fromEntries(METHODS.map((m) => [m, operationSchema.optional()])))),
  components: z.looseObject({
    schemas: z.record(z.string(), z.unknown()),
    securitySchemes: z.record(z.string(), z.looseObject({ type: z.string() })),
    headers: z.record(z.string(), z.looseObject({ description: z.string() })).optional(),
  }),
});
export type OpenApiDocument = z.infer<typeof documentSchema>;

/** The served document (`GET /api/v1/openapi.json`), checked to be an OpenAPI 3.1 shape. */
export async function fetchDocument(): Promise<{ doc: OpenApiDocument; text: string }> {
  const res = await call('GET', '/api/v1/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  return { doc: documentSchema.parse(res.body), text: res.text };
}

/** Every operation of the document with its path and lowercase method. */
export function operations(doc: OpenApiDocument): Array<{ path: string; method: string; op: Operation }> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const op = item[method] as Operation | undefined;
      return op ? [{ path, method, op }] : [];
    }),
  );
}

const objectSchema = z.looseObject({ properties: z.record(z.string(), z.record(z.string(), z.unknown())), required: z.array(z.string()).optional() });

/** A component schema of the served document that is an object (its properties and required keys). */
export async function objectComponent(name: string) {
  const { doc } = await fetchDocument();
  return objectSchema.parse(doc.components.schemas[name]);
}
