import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import { errorResponsesWithoutMisconfiguration, okResponse } from '../openapi';

export const SERVICE_NAME = 'loyalty-platform';
export const SERVICE_VERSION = '1.0.0';

export const infoSchema = z.strictObject({ name: z.string(), version: z.string(), environment: z.string() }).openapi('Info');

const route = createRoute({
  method: 'get',
  path: '/info',
  operationId: 'getInfo',
  tags: ['Platform'],
  summary: 'Service name, version and environment (no token)',
  responses: { 200: okResponse(infoSchema, 'Service information'), ...errorResponsesWithoutMisconfiguration() },
});

export function registerInfo(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, (c) =>
    c.json({ success: true as const, data: { name: SERVICE_NAME, version: SERVICE_VERSION, environment: c.env.ENVIRONMENT ?? 'development' } }, 200),
  );
}
