import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Config } from '../config';
import type { AccountEnv, AppEnv, GatewayEnv } from '../app-env';
import type { RateLimitQuota } from '../lib/env-fields';
import { ApiError } from '../lib/errors';

/** One budget a request spends: who spends it, counted by which binding, stated as which policy. */
export type RateLimitBudget<E extends AppEnv> = {
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
 * Counts the request against each of its caller's budgets in Workers Rate Limiting bindings; over
 * one, 429 RATE_LIMITED naming it. Runs after authentication: a request that fails it never reaches
 * a budget, so nobody can spend another caller's.
 *
 * Budgets are counted one after the other, in the order given, and the first that refuses answers:
 * the ones after it are not spent (a binding cannot give a count back). So the narrow budget comes
 * first: a key refused its own budget does not go on spending its tenant's, which its other keys
 * share (docs/decisions/0061-rate-limit-budgets.md).
 *
 * Headers (draft-ietf-httpapi-ratelimit-headers, structured fields): every counted response carries
 * every budget's `"<policy>";q=<limit>;w=<period>` in one `RateLimit-Policy` list. The binding answers
 * only yes or no, so the available quota is known only when it is none: the 429 alone carries
 * `RateLimit: "<policy>";r=0;t=<period>` of the budget that ran out and `Retry-After: <period>`. The
 * binding does not say when its window ends either, so both are a whole period, the longest a window lasts.
 *
 * @example app.use('*', gatewayAuth(), limitPerApiKeyAndTenant(), idempotency())
 */
export function rateLimit<E extends AppEnv>(...budgets: [RateLimitBudget<E>, ...RateLimitBudget<E>[]]) {
  return createMiddleware<E>(async function rateLimit(c, next) {
    const config: Config = c.get('config');
    const quotas = budgets.map((budget) => ({ budget, ...budget.quota(config) }));
    c.header('RateLimit-Policy', quotas.map(({ budget, limit, period }) => `"${budget.policy}";q=${limit};w=${period}`).join(', '));
    for (const { budget, limit, period } of quotas) {
      const { success } = await budget.limiter(c.env).limit({ key: budget.key(c) });
      if (success) continue;
      c.header('RateLimit', `"${budget.policy}";r=0;t=${period}`);
      c.header('Retry-After', String(period));
      throw new ApiError('RATE_LIMITED', `Rate limit exceeded: at most ${limit} requests per ${period} s per ${budget.per}; retry after ${period} s`);
    }
    await next();
  });
}

/**
 * Gateway, after gatewayAuth: per verified API key (its row id), then per tenant over all its keys
 * (minting keys must not multiply a tenant's budget).
 */
export const limitPerApiKeyAndTenant = () =>
  rateLimit<GatewayEnv>(
    {
      policy: 'per-key',
      per: 'API key',
      limiter: (env) => env.GATEWAY_RATE_LIMITER,
      quota: (config) => config.GATEWAY_RATE_LIMIT,
      key: (c) => c.get('gatewayAuth').apiKeyId,
    },
    {
      policy: 'per-tenant',
      per: 'tenant (all its API keys)',
      limiter: (env) => env.TENANT_RATE_LIMITER,
      quota: (config) => config.TENANT_RATE_LIMIT,
      key: (c) => c.get('gatewayAuth').tenantId,
    },
  );

/** Portal and the platform routes of a signed-in person (/user/me, /tenants): per account, after its token is verified. */
export const limitPerAccount = () =>
  rateLimit<AccountEnv>({
    policy: 'per-account',
    per: 'account',
    limiter: (env) => env.PORTAL_RATE_LIMITER,
    quota: (config) => config.PORTAL_RATE_LIMIT,
    key: (c) => c.get('account').id,
  });
