import { createMiddleware } from 'hono/factory';
import type { RouterRoute } from 'hono/types';
import type { AppEnv } from '../app-env';
import { ApiError } from '../lib/errors';

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** `/tenant/:tenantId/rewards` -> a regex matching one concrete path of that route. */
function routePattern(path: string): RegExp {
  const segments = path.split('/').map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}$`);
}

/**
 * The methods each registered path answers, from the app's route table (middleware, registered for
 * all methods or with a wildcard, is not a route). HEAD is answered wherever GET is. A literal
 * segment beats a parameter: of the templates a path matches, only those with the fewest
 * parameters answer it (`/earning-rules/simulate` is that route's, not the rule `simulate`'s).
 */
export function allowedMethodsOf(routes: RouterRoute[]): (path: string) => string[] {
  const byPath = new Map<string, Set<string>>();
  for (const { method, path } of routes) {
    if (method === 'ALL' || path.includes('*')) continue;
    const methods = byPath.get(path) ?? new Set<string>();
    methods.add(method);
    if (method === 'GET') methods.add('HEAD');
    byPath.set(path, methods);
  }
  const patterns = [...byPath].map(([path, methods]) => ({ pattern: routePattern(path), params: path.split('/:').length - 1, methods }));
  return (path) => {
    const matching = patterns.filter((route) => route.pattern.test(path));
    const fewest = Math.min(...matching.map((route) => route.params));
    const allowed = new Set(matching.flatMap((route) => (route.params === fewest ? [...route.methods] : [])));
    return METHOD_ORDER.filter((method) => allowed.has(method));
  };
}

/**
 * A known path asked with a method it does not have: 405 METHOD_NOT_ALLOWED with `Allow`, before
 * authentication (the route table is public, in the OpenAPI document). `routes` is read on the first
 * request, once every route is registered.
 */
export function rejectUnsupportedMethods(routes: () => RouterRoute[]) {
  let allowedMethods: ((path: string) => string[]) | undefined;
  return createMiddleware<AppEnv>(async function rejectUnsupportedMethods(c, next) {
    allowedMethods ??= allowedMethodsOf(routes());
    const allowed = allowedMethods(c.req.path);
    if (allowed.length > 0 && !allowed.includes(c.req.method.toUpperCase())) {
      c.header('Allow', allowed.join(', '));
      throw new ApiError('METHOD_NOT_ALLOWED', `${c.req.method} is not allowed on ${c.req.path}; it answers ${allowed.join(', ')}`);
    }
    await next();
  });
}
