import { createMiddleware } from 'hono/factory';
import { createDatabase } from '../db/client';
import type { AppEnv } from '../env';
import { newId } from '../lib/ids';

/** Per-request services: the Drizzle client and a request id echoed in `X-Request-Id`. */
export const initRequest = createMiddleware<AppEnv>(async function initRequest(c, next) {
  c.set('requestId', c.req.header('x-request-id')?.slice(0, 128) || newId('req'));
  c.set('db', createDatabase(c.env.DB));
  await next();
  c.header('X-Request-Id', c.get('requestId'));
});
