import { createMiddleware } from 'hono/factory';
import { createDatabase } from '../db/client';
import type { AppEnv } from '../app-env';
import { newId } from '../lib/ids';

/** A caller's id is echoed and logged only if it is short and made of characters safe in a log line. */
export const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const idOfRequest = new WeakMap<Request, string>();

/**
 * The request id of every answer of the Worker, the CMS's and the 404s outside /api/v1 included:
 * the caller's `X-Request-Id` if safe, else a new `req_...`. It is the `X-Request-Id` response
 * header, the `error.request_id` of a failure and the `requestId` of our log lines, so the id a
 * partner quotes finds the log line. Registered first on the root app, before any error can happen.
 *
 * @example app.use('*', identifyRequest)
 */
export const identifyRequest = createMiddleware<AppEnv>(async function identifyRequest(c, next) {
  const sent = c.req.header('x-request-id');
  // A request the portal dispatches again (a stale remembered membership, src/middleware/portal-auth.ts) keeps its id.
  const id = idOfRequest.get(c.req.raw) ?? (sent !== undefined && SAFE_REQUEST_ID.test(sent) ? sent : newId('req'));
  idOfRequest.set(c.req.raw, id);
  c.set('requestId', id);
  await next();
  c.header('X-Request-Id', c.get('requestId'));
});

/**
 * Per-request services of the API: the directory's Drizzle client (a tenant's surface adds its
 * shard's once it knows the tenant). Every API answer also says `nosniff`: a
 * browser opening one renders it only as the type it states (JSON, never a guessed HTML page).
 */
export const initRequest = createMiddleware<AppEnv>(async function initRequest(c, next) {
  c.set('directory', createDatabase(c.env.DB));
  await next();
  c.header('X-Content-Type-Options', 'nosniff');
});
