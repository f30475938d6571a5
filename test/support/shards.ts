import { env } from 'cloudflare:test';
import { parseShardNames } from '../../src/domain/shards';

/**
 * The shards of the test Worker (wrangler.toml: SHARDS = "SHARD_0,SHARD_1"), by binding name, in
 * SHARDS's order (parsed as the Worker does, src/domain/shards.ts). Throws if SHARDS is malformed
 * or names a binding the Worker does not have, so no test runs on fewer databases than the Worker.
 */
export function shardBindings(): { name: string; db: D1Database }[] {
  const parsed = parseShardNames(env.SHARDS);
  if ('problem' in parsed) throw new Error(`wrangler.toml: ${parsed.problem}`);
  return parsed.names.map((name) => {
    const db = (env as unknown as Record<string, unknown>)[name];
    if (!isD1Database(db)) throw new Error(`SHARDS names ${name}, but the Worker has no D1 binding of that name (wrangler.toml [[d1_databases]])`);
    return { name, db };
  });
}

/** The shard holding a tenant's data, as the directory (DB) has it. */
export async function tenantShard(tenantId: string): Promise<{ name: string; db: D1Database }> {
  const row = await env.DB.prepare('SELECT shard FROM tenants WHERE id = ?').bind(tenantId).first<{ shard: string }>();
  if (!row) throw new Error(`tenant ${tenantId} is not in the directory`);
  const shard = shardBindings().find(({ name }) => name === row.shard);
  if (!shard) throw new Error(`tenant ${tenantId} is placed in ${row.shard}, which SHARDS does not name`);
  return shard;
}

/**
 * The shard holding each of `ids` in `table`, as a producer knows it from its tenant's context: a
 * test's queue message names it as the producer's would. An id in no shard (a test's unknown id)
 * gets the first shard's name.
 */
export async function shardsHolding(table: string, ids: readonly string[]): Promise<(id: string) => string> {
  const shards = shardBindings();
  const found = await Promise.all(
    shards.map(async ({ name, db }) => {
      const { results } = await db.prepare(`SELECT id FROM "${table}" WHERE id IN (SELECT value FROM json_each(?))`).bind(JSON.stringify(ids)).all<{ id: string }>();
      return results.map(({ id }): [string, string] => [id, name]);
    }),
  );
  const holding = new Map(found.flat());
  return (id) => holding.get(id) ?? shards[0]?.name ?? 'SHARD_0';
}

function isD1Database(value: unknown): value is D1Database {
  return typeof value === 'object' && value !== null && typeof (value as D1Database).prepare === 'function' && typeof (value as D1Database).batch === 'function';
}
