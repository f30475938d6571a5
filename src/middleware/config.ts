import { createMiddleware } from 'hono/factory';
import { configOf } from '../config';
import type { AppEnv } from '../app-env';
import { ApiError } from '../lib/errors';

export type RequireConfigOptions = {
  /**
   * GET paths that answer whatever the configuration: each an exact path, or a prefix ending in
   * `/*` (`/api/v1/docs/*`, every path under it). Default none.
   */
  exempt?: readonly string[];
};

/** The exempt list as a test of a path: exact paths in a set, `/*` entries as prefixes. */
function exemptionOf(exempt: readonly string[]): (path: string) => boolean {
  const exact = new Set(exempt.filter((pattern) => !pattern.endsWith('/*')));
  const prefixes = exempt.filter((pattern) => pattern.endsWith('/*')).map((pattern) => pattern.slice(0, -1));
  return (path) => exact.has(path) || prefixes.some((prefix) => path.startsWith(prefix));
}

/**
 * A missing or malformed variable answers 503 SERVICE_MISCONFIGURED naming each variable at fault
 * (never its value) before any route can trip over it; the validated config is `c.get('config')`.
 * Each such answer is logged with its request id (`onError`, src/middleware/errors.ts); the
 * problems themselves once per isolate and configuration (`configOf`, which queue and cron work
 * without a request share).
 * A GET of an `exempt` path passes unchecked: the app names what answers whatever the configuration.
 *
 * @example api.use('*', requireConfig({ exempt: ['/api/v1/info', '/api/v1/openapi.json', '/api/v1/docs', '/api/v1/docs/*'] }))
 */
export function requireConfig({ exempt = [] }: RequireConfigOptions = {}) {
  const isExempt = exemptionOf(exempt);
  return createMiddleware<AppEnv>(async function requireConfig(c, next) {
    if (c.req.method === 'GET' && isExempt(c.req.path)) return next();
    const result = configOf(c.env);
    if (!result.ok) {
      const [first] = result.problems;
      const message = result.problems.length === 1 && first ? first.message : `The service is misconfigured: ${result.problems.map((p) => p.message).join('; ')}`;
      throw new ApiError('SERVICE_MISCONFIGURED', message, { errors: result.problems.map((p) => ({ path: '', message: p.message })) });
    }
    c.set('config', result.config);
    await next();
  });
}
