import { createMiddleware } from 'hono/factory';
import { configOf } from '../config';
import type { AppEnv } from '../env';
import { ApiError } from '../lib/errors';
import { DOCS_URL } from '../routes/docs/files';

/**
 * What answers whatever the configuration: /info, which operators probe while fixing one, and the
 * API reference (its page, its files, the document), which reads no variable and which they and
 * partners read meanwhile (docs/DECISIONS.md "API reference offline").
 */
function answersWithoutConfig(path: string): boolean {
  return path === '/api/v1/info' || path === '/api/v1/openapi.json' || path === DOCS_URL || path.startsWith(`${DOCS_URL}/`);
}

/**
 * A missing or malformed variable answers 503 SERVICE_MISCONFIGURED naming each variable at fault
 * (never its value) before any route can trip over it.
 */
export const requireConfig = createMiddleware<AppEnv>(async function requireConfig(c, next) {
  if (c.req.method === 'GET' && answersWithoutConfig(c.req.path)) return next();
  const result = configOf(c.env);
  if (!result.ok) {
    const [first] = result.problems;
    const message = result.problems.length === 1 && first ? first.message : `The service is misconfigured: ${result.problems.map((p) => p.message).join('; ')}`;
    throw new ApiError('SERVICE_MISCONFIGURED', message, { errors: result.problems.map((p) => ({ path: '', message: p.message })) });
  }
  c.set('config', result.config);
  await next();
});
