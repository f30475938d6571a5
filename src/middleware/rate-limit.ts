import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Config } from '../config';
import type { AccountEnv, AppEnv, GatewayEnv } from '../env';
import type { RateLimitQuota } from '../lib/env-fields';
import { ApiError } from '../lib/errors';

export type RateLimitOptions<E extends AppEnv> = {
  /** The policy's name in `RateLimit-Policy` and `RateLimit` (a structured-field string). */
  policy: string;
  /** Who spends the budget, for the 429's message ("API key", "account"). */
  per: string;
  /** The Workers Rate Limiting binding that counts. */
  limiter: (env: E['Bindings']) => RateLimit;
  /** Its `simple` limit and period as the environment states them (src/config.ts). */
  quota: (config: Config) => RateLimitQuota;
  /** Whose budget the request spends: set by authentication, so only a verified caller spends its own. */
  key: (c: Context<E>) => string;
};

/**
 * Counts the request against its caller's budget in a Workers Rate Limiting binding; over it, 429
 * RATE_LIMITED. Runs after authentication: a request that fails it never reaches a budget, so
 * nobody can spend another caller's.
 *
 * Headers (draft-ietf-httpapi-ratelimit-headers, structured fields): every counted response carries
 * `RateLimit-Policy: "<policy>";q=<limit>;w=<period>`. The binding answers only yes or no, so the
 * available quota is known only when it is none: the 429 alone carries `RateLimit: "<policy>";r=0;t=<period>`
 * and `Retry-After: <period>`. The binding does not say when its window ends either, so both are a
 * whole period, the longest a window lasts.
 *
 * @example app.use('*', gatewayAuth(), limitPerApiKey(), idempotency())
 */
export function rateLimit<E extends AppEnv>(options: RateLimitOptions<E>) {
  return createMiddleware<E>(async function rateLimit(c, next) {
    const config: Config = c.get('config');
    const { limit, period } = options.quota(config);
    c.header('RateLimit-Policy', `"${options.policy}";q=${limit};w=${period}`);
    const { success } = await options.limiter(c.env).limit({ key: options.key(c) });
    if (!success) {
      c.header('RateLimit', `"${options.policy}";r=0;t=${period}`);
      c.header('Retry-After', String(period));
      throw new ApiError('RATE_LIMITED', `Rate limit exceeded: at most ${limit} requests per ${period} s per ${options.per}; retry after ${period} s`);
    }
    await next();
  });
}

/** Gateway: per verified API key (its row id), after gatewayAuth. */
export const limitPerApiKey = () =>
  rateLimit<GatewayEnv>({
    policy: 'per-key',
    per: 'API key',
    limiter: (env) => env.GATEWAY_RATE_LIMITER,
    quota: (config) => config.GATEWAY_RATE_LIMIT,
    key: (c) => c.get('gatewayAuth').apiKeyId,
  });

/** Portal and the platform routes of a signed-in person (/user/me, /tenants): per account, after its token is verified. */
export const limitPerAccount = () =>
  rateLimit<AccountEnv>({
    policy: 'per-account',
    per: 'account',
    limiter: (env) => env.PORTAL_RATE_LIMITER,
    quota: (config) => config.PORTAL_RATE_LIMIT,
    key: (c) => c.get('account').id,
  });
