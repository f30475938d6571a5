import { createMiddleware } from 'hono/factory';
import { createDatabase } from '../db/client';
import type { AppEnv } from '../env';
import { newId } from '../lib/ids';

/** A caller's id is echoed and logged only if it is short and made of characters safe in a log line. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Per-request services: the Drizzle client and a request id echoed in `X-Request-Id` (the caller's,
 * if safe). Every API answer also says `nosniff`: a browser opening one renders it only as the
 * type it states (JSON, never a guessed HTML page).
 */
export const initRequest = createMiddleware<AppEnv>(async function initRequest(c, next) {
  const sent = c.req.header('x-request-id');
  c.set('requestId', sent !== undefined && SAFE_REQUEST_ID.test(sent) ? sent : newId('req'));
  c.set('db', createDatabase(c.env.DB));
  await next();
  c.header('X-Request-Id', c.get('requestId'));
  c.header('X-Content-Type-Options', 'nosniff');
});
