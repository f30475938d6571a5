import { z, type RouteConfig } from '@hono/zod-openapi';
import { expect } from 'vitest';
import { API_PREFIX, createApp } from '../../../src/app';
import { call } from '../../support/http';
import { jsonSchemaSchema, resolverOf, type JsonSchema, type Resolve } from './json-schema';
import type { Parameter } from './params';

/**
 * The operations of the served OpenAPI document, each paired with its route in the app's registry
 * (the zod schemas the document was generated from: they check responses strictly and tell a
 * schema refusal from a business one).
 */
type Surface = 'gateway' | 'portal' | 'account' | 'public';

export type Operation = {
  /** `METHOD /path` as in the document, e.g. `GET /tenant/{tenantId}/rewards`. */
  id: string;
  method: string;
  /** Full path template with the `/api/v1` prefix. */
  path: string;
  surface: Surface;
  parameters: Parameter[];
  body?: JsonSchema;
  /** A file body (text/csv): the document's example, sent as the valid body. */
  file?: string;
  /** Documented statuses and the JSON schema of each body. */
  responses: Map<number, JsonSchema | undefined>;
  /** Each documented status's description (they name the codes, and the header an error is about). */
  descriptions: Map<number, string>;
  route: RouteConfig;
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** A JSON body's schema, or a file sent or answered as is (an import's CSV, its error file), which the fuzzer neither sends nor reads. */
const content = z.looseObject({
  'application/json': z.looseObject({ schema: jsonSchemaSchema }).optional(),
  'text/csv': z.looseObject({ schema: z.looseObject({ example: z.string().optional() }) }).optional(),
});
const operationSchema = z.looseObject({
  security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
  parameters: z
    .array(
      z.looseObject({
        name: z.string(),
        in: z.enum(['path', 'query', 'header']),
        required: z.boolean().optional(),
        description: z.string().optional(),
        schema: jsonSchemaSchema,
      }),
    )
    .optional(),
  requestBody: z.looseObject({ required: z.boolean().optional(), content }).optional(),
  responses: z.record(z.string().regex(/^\d{3}$/), z.looseObject({ description: z.string(), content: content.optional() })),
});
const documentSchema = z.looseObject({
  paths: z.record(z.string(), z.looseObject(Object.fromEntries(METHODS.map((method) => [method, operationSchema.optional()])))),
  components: z.looseObject({ schemas: z.record(z.string(), jsonSchemaSchema) }),
});
type DocumentOperation = z.infer<typeof operationSchema>;

/** The JSON body's schema of a content map; none for a file. */
function jsonSchemaOf(media: z.infer<typeof content> | undefined): JsonSchema | undefined {
  return media?.['application/json']?.schema;
}

function surfaceOf(path: string, op: DocumentOperation): Surface {
  if (!op.security?.length) return 'public';
  if (path.startsWith('/gateway/')) return 'gateway';
  return path.startsWith('/tenant/') ? 'portal' : 'account';
}

function registryRoutes(): Map<string, RouteConfig> {
  const routes = new Map<string, RouteConfig>();
  for (const definition of createApp().openAPIRegistry.definitions) {
    if (definition.type === 'route') routes.set(`${definition.route.method.toUpperCase()} ${definition.route.path}`, definition.route);
  }
  return routes;
}

export async function loadOperations(): Promise<{ operations: Operation[]; resolve: Resolve; documentedCount: number }> {
  const res = await call('GET', `${API_PREFIX}/openapi.json`);
  expect(res.status).toBe(200);
  const parsed = documentSchema.safeParse(res.body);
  // A keyword outside the fuzzer's JSON Schema subset shows up here (json-schema.ts).
  expect(parsed.success ? null : parsed.error.issues.slice(0, 5), 'the document parses with the fuzzer schema subset').toBeNull();
  const doc = parsed.data!;
  const routes = registryRoutes();
  const operations: Operation[] = [];
  let documentedCount = 0;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      documentedCount += 1;
      const id = `${method.toUpperCase()} ${path}`;
      const route = routes.get(`${method.toUpperCase()} ${API_PREFIX}${path}`);
      expect(route, `${id} has a route in the registry`).toBeDefined();
      if (!route) continue;
      operations.push({
        id,
        method: method.toUpperCase(),
        path: `${API_PREFIX}${path}`,
        surface: surfaceOf(path, op),
        parameters: (op.parameters ?? []).map((p) => ({ name: p.name, in: p.in, required: p.required ?? false, schema: p.schema, description: p.description })),
        body: jsonSchemaOf(op.requestBody?.content),
        file: op.requestBody?.content['text/csv']?.schema.example,
        responses: new Map(Object.entries(op.responses).map(([status, response]) => [Number(status), jsonSchemaOf(response.content)])),
        descriptions: new Map(Object.entries(op.responses).map(([status, response]) => [Number(status), response.description])),
        route,
      });
    }
  }
  return { operations, resolve: resolverOf(doc.components.schemas), documentedCount };
}

function isZod(schema: unknown): schema is z.ZodType {
  return schema instanceof z.ZodType;
}

/** The zod schema of the route's JSON response for `status`, if it documents one. */
export function responseZod(route: RouteConfig, status: number): z.ZodType | undefined {
  const response = route.responses[String(status)];
  if (!response || !('content' in response)) return undefined;
  const media = response.content?.['application/json'];
  const schema = media && 'schema' in media ? media.schema : undefined;
  return isZod(schema) ? schema : undefined;
}

/** The route's own request schemas: what its validator refuses with 422 before any handler runs. */
export function requestZod(route: RouteConfig) {
  const media = route.request?.body?.content['application/json'];
  const body = media && 'schema' in media ? media.schema : undefined;
  const headers = route.request?.headers;
  return {
    params: route.request?.params,
    query: route.request?.query,
    headers: isZod(headers) ? headers : undefined,
    body: isZod(body) ? body : undefined,
  };
}
