/**
 * The RateLimit headers state GATEWAY_RATE_LIMIT / PORTAL_RATE_LIMIT / TENANT_RATE_LIMIT, while the
 * limiters enforce the `simple` of their [[ratelimits]] bindings (which a Worker cannot read): in
 * every environment of wrangler.toml the two must be the same numbers. vitest.config.mts reads them (Node) and provides them.
 * A missing or malformed binding or var is a named 503: test/config/environment.test.ts.
 */
import { describe, expect, inject, it } from 'vitest';
import './provided';

const LIMITERS = [
  ['GATEWAY_RATE_LIMITER', 'GATEWAY_RATE_LIMIT'],
  ['PORTAL_RATE_LIMITER', 'PORTAL_RATE_LIMIT'],
  ['TENANT_RATE_LIMITER', 'TENANT_RATE_LIMIT'],
] as const;

const environments = Object.entries(inject('wranglerRateLimits'));

describe('wrangler.toml rate limits', () => {
  it('covers the top level and the deployed environments', () => {
    expect(environments.map(([name]) => name)).toEqual(expect.arrayContaining(['(top level)', 'staging', 'production']));
  });

  it.each(environments)('%s: each limiter is bound, and its var states its own limit/period', (name, { ratelimits, vars }) => {
    for (const [binding, variable] of LIMITERS) {
      const limiter = ratelimits.find((entry) => entry.name === binding);
      expect(limiter, `${name}: [[ratelimits]] ${binding}`).toBeDefined();
      expect(vars[variable], `${name}: ${variable}`).toBe(`${limiter?.simple.limit}/${limiter?.simple.period}`);
    }
  });

  it.each(environments)('%s: each limiter has a namespace_id of its own (limiters sharing one share their counts)', (name, { ratelimits }) => {
    const ids = LIMITERS.map(([binding]) => ratelimits.find((entry) => entry.name === binding)?.namespace_id);
    expect(new Set(ids).size, `${name}: ${JSON.stringify(ids)}`).toBe(LIMITERS.length);
  });

  it('the local limits are out of reach of the test suite (fuzz, scale: thousands of calls per key or account)', () => {
    const local = inject('wranglerRateLimits')['(top level)'];
    for (const [binding] of LIMITERS) {
      const limiter = local?.ratelimits.find((entry) => entry.name === binding);
      expect(limiter?.simple.limit ?? 0, `${binding}: test/rate-limits uses tight limiters of its own`).toBeGreaterThanOrEqual(100_000);
    }
  });
});
