/**
 * Tenant shards (docs/SCALING.md, "The directory and its shards"): the D1 databases that hold the
 * tenants' data, named by the var SHARDS as binding names `SHARD_<number>`. The number is the
 * shard's for good: it is in no row, but it decides the custodial wallets' derivation range.
 */

export const SHARD_NAME = /^SHARD_(0|[1-9]\d{0,2})$/;

/**
 * Custodial wallet derivation indexes per shard: shard n takes [n * SIZE, (n + 1) * SIZE), so two
 * shards never derive the same key from the one mnemonic without asking each other. 2^24 wallets
 * is more than a shard holds (10 GB at 2-3 KB a customer), and 128 shards stay under BIP-32's
 * 2^31 non-hardened indexes.
 */
export const CUSTODIAL_RANGE_SIZE = 2 ** 24;
export const MAX_SHARDS = 2 ** 31 / CUSTODIAL_RANGE_SIZE;

export type ShardName = `SHARD_${number}`;

/** The form of the D1 bookmarks this API sends (`X-D1-Bookmark`); anything else sent back is refused. */
export const BOOKMARK_FORMAT = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

/** The shard names of SHARDS in their order, or why the var is wrong (a message naming it). */
export function parseShardNames(value: string | undefined): { names: ShardName[] } | { problem: string } {
  const names = (value ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (names.length === 0) return { problem: 'SHARDS is not set: list the tenant shards\' D1 bindings, e.g. "SHARD_0,SHARD_1"' };
  // Named by position, never by value: a configuration message never echoes what was set.
  const wrong = names.findIndex((name) => !SHARD_NAME.test(name) || shardNumber(name) >= MAX_SHARDS);
  if (wrong >= 0) return { problem: `SHARDS entry ${wrong + 1} is not a shard binding name: a shard binding is SHARD_<number>, 0 to ${MAX_SHARDS - 1}` };
  if (new Set(names).size !== names.length) return { problem: 'SHARDS names a binding twice' };
  return { names: names as ShardName[] };
}

export function shardNumber(name: string): number {
  return Number(name.slice('SHARD_'.length));
}

/** The first derivation index of a shard's custodial wallets. */
export function custodialRangeStart(name: string): number {
  return shardNumber(name) * CUSTODIAL_RANGE_SIZE;
}

/** The index, once checked to be in the shard's range: past its end it would be the next shard's key. */
export function custodialIndexOfShard(name: string, index: number): number {
  const start = custodialRangeStart(name);
  if (index < start || index >= start + CUSTODIAL_RANGE_SIZE) throw new Error(`custodial index ${index} is outside ${name}'s range`);
  return index;
}

/**
 * Where a new tenant goes: the pinned shard if the operator set one, else the shard with the
 * fewest tenants (the first listed on a tie), so tenants spread without anyone choosing.
 */
export function placeTenant(names: readonly ShardName[], tenantsPerShard: ReadonlyMap<string, number>, pinned?: ShardName): ShardName {
  if (pinned !== undefined) return pinned;
  let best = names[0];
  if (best === undefined) throw new Error('no shard to place a tenant in');
  for (const name of names) if ((tenantsPerShard.get(name) ?? 0) < (tenantsPerShard.get(best) ?? 0)) best = name;
  return best;
}
