import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Database } from '../db/client';
import type { Bindings } from '../env';
import { forTenant, runContext, type ServiceContext } from '../services/context';

type ServicesEnv = { Bindings: Bindings; Variables: { db: Database; requestId: string; services: ServiceContext } };

/**
 * The request's services context (services/context.ts), for the routes' calls: the request's
 * database as the middleware before left it (a key guard, a membership check or an idempotency
 * claim leading its first round trip), the tenant `tenantOf` names, the request id and the clock.
 * A surface's last middleware, after every one that wraps `db`.
 *
 * @example app.use('*', provideServices((c) => c.get('gatewayAuth').tenantId))
 */
export function provideServices<E extends ServicesEnv>(tenantOf: (c: Context<E>) => string) {
  return createMiddleware<E>(async function provideServices(c, next) {
    const base = runContext(c.env, { db: c.get('db'), requestId: c.get('requestId') });
    c.set('services', forTenant(base, tenantOf(c)));
    await next();
  });
}
