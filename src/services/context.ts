import { onchainContext, type OnchainContext } from '../chain/context';
import { parseShardNames } from '../domain/shards';
import { createDatabase, type Database } from '../db/client';
import { shardNamed, shardsOf, type Shard } from '../data/shards';
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
  /** The directory database (accounts, tenants and their shards, memberships, the relayer's nonces). */
  directory: Database;
  /** Every tenant shard, in the order SHARDS lists them. */
  shards: readonly Shard[];
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

/** A run on one shard: its tenants' data. A cron job runs once per shard with one of these. */
export type ShardContext = RunContext & {
  /** The shard's Drizzle client: on the gateway and the portal its first round trip is led by a guard or claim (data/leading-d1.ts). */
  db: Database;
  shard: Shard;
};

/** A context for one tenant's data, on the tenant's shard: every tenant-scoped service takes it. */
export type ServiceContext = ShardContext & { tenantId: string };

const systemClock = () => new Date();

/**
 * The configured shards, read on their own: a run reaches its data whatever else of the
 * configuration is broken (a bad relayer key is recorded against each operation, not a lost run).
 * A broken SHARDS throws with the configuration's own message; requests answer it as a 503 first.
 */
function configuredShards(env: Bindings): Shard[] {
  const parsed = parseShardNames(env.SHARDS);
  if ('problem' in parsed) throw new Error(`the service is misconfigured: ${parsed.problem}`);
  return shardsOf(env, parsed.names);
}

/**
 * A context off-request (a queue batch, a cron run), or the base of a request's. `onchain` is built
 * on first use: most requests never touch a chain.
 */
export function runContext(env: Bindings, fields: { directory?: Database; now?: () => Date; requestId?: string } = {}): RunContext {
  let onchain: OnchainContext | undefined;
  const directory = fields.directory ?? createDatabase(env.DB);
  const shards = configuredShards(env);
  return {
    directory,
    shards,
    now: fields.now ?? systemClock,
    get onchain() {
      return (onchain ??= onchainContext(env));
    },
    requestId: fields.requestId,
  };
}

/** The same run on one shard; `db` is the shard's own client unless the caller wrapped it (a guard, an audit). */
export function onShard(ctx: RunContext, shard: Shard, db: Database = createDatabase(shard.d1)): ShardContext {
  return { ...baseOf(ctx), db, shard };
}

/** The same run, scoped to one tenant of its shard (a job's work through the tenant-scoped services, or a request's). */
export function forTenant(ctx: ShardContext, tenantId: string): ServiceContext {
  return { ...onShard(ctx, ctx.shard, ctx.db), tenantId };
}

/**
 * The run on the shard a queue message names (env.ts, `OfShard`); a message from before shards
 * names none and is about the first. A name SHARDS does not list throws: the message is retried
 * until the configuration lists its shard again.
 */
export function onMessageShard(ctx: RunContext, shard: unknown): ShardContext {
  const [first] = ctx.shards;
  if (shard === undefined && first) return onShard(ctx, first);
  return onShard(ctx, shardNamed(ctx.shards, String(shard)));
}

/** The run's fields without copying `onchain` (a getter: built on first use, once per run). */
function baseOf(ctx: RunContext): RunContext {
  return {
    directory: ctx.directory,
    shards: ctx.shards,
    now: ctx.now,
    requestId: ctx.requestId,
    get onchain() {
      return ctx.onchain;
    },
  };
}

/**
 * Runs a job once per shard, the shards at once, each bounded by the job's own limits: one shard's
 * backlog never delays another's. Every shard's run finishes before a failure is thrown (the first).
 */
export async function eachShard<T>(ctx: RunContext, job: (shardCtx: ShardContext) => Promise<T>): Promise<T[]> {
  const results = await Promise.allSettled(ctx.shards.map((shard) => job(onShard(ctx, shard))));
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((result) => (result as PromiseFulfilledResult<T>).value);
}
