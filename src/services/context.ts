import { onchainContext, type OnchainContext } from '../chain/context';
import { createDatabase, type Database } from '../db/client';
import type { Bindings } from '../env';

/**
 * What a service runs with, built once per request by the surface's middleware
 * (middleware/services.ts: the gateway's tenant comes from the API key, the portal's from the
 * path), once per queue batch or cron run by its entry point (`runContext`). Services take it
 * first, then their input: `(ctx, input)`, or `(ctx, id, input)` where an id is natural.
 * Configuration and other bindings a service needs (an encryption key, KV, a queue) follow the
 * input: they are the caller's to give, not the request's.
 */
export type RunContext = {
  /** The request's Drizzle client: on the gateway and the portal its first round trip is led by a guard or claim (data/leading-d1.ts). */
  db: Database;
  /**
   * The clock. A service reads the time only from here (and passes it to the data it writes), so
   * a test can set it; pure domain rules take `now` as a parameter.
   */
  now: () => Date;
  /** Chains, relayer and the settlement queue, parsed from the environment on first use. */
  onchain: OnchainContext;
  /** The request's id (`X-Request-Id`), for logs; absent off-request (queue consumers, crons). */
  requestId?: string;
};

/** A context for one tenant's data: every tenant-scoped service takes it. */
export type ServiceContext = RunContext & { tenantId: string };

const systemClock = () => new Date();

/**
 * A context off-request (a queue batch, a cron run), or the base of a request's. `onchain` is built
 * on first use: most requests never touch a chain.
 */
export function runContext(env: Bindings, fields: { db?: Database; now?: () => Date; requestId?: string } = {}): RunContext {
  let onchain: OnchainContext | undefined;
  return {
    db: fields.db ?? createDatabase(env.DB),
    now: fields.now ?? systemClock,
    get onchain() {
      return (onchain ??= onchainContext(env));
    },
    requestId: fields.requestId,
  };
}

/** The same run, scoped to one tenant (a job's work through the tenant-scoped services, or a request's). */
export function forTenant(ctx: RunContext, tenantId: string): ServiceContext {
  return {
    db: ctx.db,
    now: ctx.now,
    requestId: ctx.requestId,
    get onchain() {
      return ctx.onchain;
    },
    tenantId,
  };
}

