/**
 * What vitest.config.mts (Node) reads from wrangler.toml for test/rate-limits/configuration.test.ts:
 * per environment ("(top level)", "staging", ...) its rate limiters and its vars.
 */
export type WranglerRateLimits = { ratelimits: { name: string; namespace_id: string; simple: { limit: number; period: number } }[]; vars: Record<string, unknown> };

declare module 'vitest' {
  export interface ProvidedContext {
    wranglerRateLimits: Record<string, WranglerRateLimits>;
  }
}
