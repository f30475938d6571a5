import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Env } from 'hono';
import { createMiddleware } from 'hono/factory';
import { routePath } from 'hono/route';
import { AuditedD1 } from '../data/audited-d1';
import { createDatabase, type Database } from '../db/client';
import type { AuditActorType } from '../db/schema';
import { auditedOperations, tablesList } from '../domain/audit';
import { newId } from '../lib/ids';

export type AuditActor = { type: AuditActorType; id: string; label: string };

type AuditEnv = Env & { Variables: { db: Database; requestId: string } };

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `METHOD /path/:param` of each route of a surface's app -> its operationId, as Hono names the routes. */
function operationIdsOf(app: OpenAPIHono<never>): Map<string, string> {
  const ids = new Map<string, string>();
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type !== 'route' || !definition.route.operationId) continue;
    const path = definition.route.path.replace(/\{([^}]+)\}/g, ':$1');
    ids.set(`${definition.route.method.toUpperCase()} ${path}`, definition.route.operationId);
  }
  return ids;
}

/**
 * Records the audit log of the surface's audited writes (domain/audit.ts `auditedOperations`): the
 * request's database becomes an AuditedD1 carrying who (`actorOf`), the operation and the request
 * id into every write batch. Placed after every middleware that wraps `db` (a guard or claim leads
 * the batch, then the audit context), before the services take it.
 *
 * @example app.use('*', auditWrites(app, (c) => ({ type: 'account', id: ..., label: ... }), (c) => tenantId))
 */
export function auditWrites<E extends AuditEnv>(app: OpenAPIHono<E>, actorOf: (c: Context<E>) => AuditActor, tenantOf: (c: Context<E>) => string) {
  let operations: Map<string, string> | undefined;
  return createMiddleware<E>(async function auditWrites(c, next) {
    if (READS.has(c.req.method)) return next();
    // This middleware's own path is the surface's mount point plus `/*`; the last matched route is the handler's.
    const mount = routePath(c).replace(/\/\*$/, '');
    operations ??= operationIdsOf(app as unknown as OpenAPIHono<never>);
    const action = operations.get(`${c.req.method} ${routePath(c, -1).slice(mount.length)}`);
    const tables = action === undefined ? undefined : auditedOperations[action];
    if (action === undefined || tables === undefined) return next();
    const actor = actorOf(c);
    const audited = new AuditedD1(c.get('db').$client, {
      writeId: newId('aw'),
      requestId: c.get('requestId'),
      tenantId: tenantOf(c),
      at: new Date().toISOString(),
      actorType: actor.type,
      actorId: actor.id,
      actorLabel: actor.label,
      action,
      tables: tablesList(tables),
    });
    c.set('db', createDatabase(audited.binding));
    await next();
  });
}
