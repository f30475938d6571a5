import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Database } from '../db/client';
import type { Bindings } from '../env';
import type { Shard } from '../data/shards';
import { forTenant, onShard, runContext, type RunContext, type ServiceContext } from '../services/context';

type ServicesEnv = { Bindings: Bindings; Variables: { directory: Database; db: Database; shard: Shard; requestId: string; services: ServiceContext } };

/** The request's run outside any tenant (a sign-in, /user/me, creating a tenant): the directory, the shards, the request id. */
export function requestContext<E extends { Bindings: Bindings; Variables: { directory: Database; requestId: string } }>(c: Context<E>): RunContext {
  return runContext(c.env, { directory: c.get('directory'), requestId: c.get('requestId') });
}

/**
 * The request's services context (services/context.ts), for the routes' calls: the directory, and
 * the tenant's shard as the middleware before left it (a key guard, a membership check or an idempotency
 * claim leading its first round trip), the tenant `tenantOf` names, the request id and the clock.
 * A surface's last middleware, after every one that wraps `db`.
 *
 * @example app.use('*', provideServices((c) => c.get('gatewayAuth').tenantId))
 */
export function provideServices<E extends ServicesEnv>(tenantOf: (c: Context<E>) => string) {
  return createMiddleware<E>(async function provideServices(c, next) {
    c.set('services', forTenant(onShard(requestContext(c), c.get('shard'), c.get('db')), tenantOf(c)));
    await next();
  });
}
