import type { ShardName } from '../domain/shards';

/** One tenant shard: its binding name (what `tenants.shard` holds in the directory) and its D1 binding. */
export type Shard = { name: ShardName; d1: D1Database };

/**
 * The shards of a checked configuration (src/config.ts: every name in SHARDS is bound), by name.
 * Bindings are read off the env by the names the var lists, so adding a shard is configuration.
 */
export function shardsOf(env: object, names: readonly ShardName[]): Shard[] {
  const bindings = env as Record<string, D1Database | undefined>;
  return names.map((name) => {
    const d1 = bindings[name];
    if (d1 === undefined) throw new Error(`${name} is listed in SHARDS but not bound`);
    return { name, d1 };
  });
}

/** The shard of that name; a name SHARDS does not list (a shard dropped from the var while tenants live there) is a fault, not a 404. */
export function shardNamed(shards: readonly Shard[], name: string): Shard {
  const shard = shards.find((candidate) => candidate.name === name);
  if (!shard) throw new Error(`${name} holds tenants but SHARDS does not list it`);
  return shard;
}

/** A request's D1 session on a shard (D1's Sessions API) and the binding Drizzle and LeadingD1 run on. */
export type ShardSession = { binding: D1Database; bookmark(): string | null };

/**
 * Opens a session on the shard from `start`: a bookmark (served by a copy at least that new),
 * `first-primary` or `first-unconstrained` (the nearest copy, maybe a read replica). Drizzle and
 * LeadingD1 only prepare and batch, which a session does; the rest goes to the binding.
 */
export function openSession(shard: Shard, start: string): ShardSession {
  const session = shard.d1.withSession(start);
  const binding: D1Database = {
    prepare: (query) => session.prepare(query),
    batch: (statements) => session.batch(statements),
    exec: (query) => shard.d1.exec(query),
    dump: () => shard.d1.dump(),
    withSession: (constraint) => shard.d1.withSession(constraint),
  };
  return { binding, bookmark: () => session.getBookmark() };
}
