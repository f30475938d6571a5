import { createMiddleware } from 'hono/factory';
import { configOf } from '../config';
import type { AppEnv } from '../env';
import { ApiError } from '../lib/errors';

/** The one route that answers whatever the configuration: operators probe it while fixing one. */
const ANSWERS_WITHOUT_CONFIG = '/api/v1/info';

/**
 * A missing or malformed variable answers 503 SERVICE_MISCONFIGURED naming each variable at fault
 * (never its value) before any route can trip over it.
 */
export const requireConfig = createMiddleware<AppEnv>(async function requireConfig(c, next) {
  if (c.req.method === 'GET' && c.req.path === ANSWERS_WITHOUT_CONFIG) return next();
  const result = configOf(c.env);
  if (!result.ok) {
    const [first] = result.problems;
    const message = result.problems.length === 1 && first ? first.message : `The service is misconfigured: ${result.problems.map((p) => p.message).join('; ')}`;
    throw new ApiError('SERVICE_MISCONFIGURED', message, { errors: result.problems.map((p) => ({ path: '', message: p.message })) });
  }
  c.set('config', result.config);
  await next();
});
