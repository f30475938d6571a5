/**
 * The D1 databases of one environment of a wrangler config: the directory (binding DB) and the
 * shards its var SHARDS names (docs/SCALING.md, "The directory and its shards"), read with
 * wrangler's own parser. Checked here so a script fails naming the binding or var at fault,
 * before wrangler runs: a shard SHARDS names but no `[[d1_databases]]` declares, a binding whose
 * migrations_dir is not its kind's (a shard migrated with the directory's history, or the reverse).
 */
import { resolve, sep } from 'node:path';
import { experimental_readRawConfig, type Unstable_RawEnvironment } from 'wrangler';
import { parseShardNames } from '../../src/domain/shards';

export const DIRECTORY_BINDING = 'DB';
export const DIRECTORY_MIGRATIONS = 'migrations/directory';
export const SHARD_MIGRATIONS = 'migrations/shard';

/** `localId`: the id miniflare keeps the database's local file under (as `wrangler dev` picks it). */
export type D1Binding = { binding: string; databaseName?: string; localId: string; migrationsDir: string };
export type D1Layout = { directory: D1Binding; shards: D1Binding[] };

/** `"SHARD_0,SHARD_1"` → `['SHARD_0', 'SHARD_1']`, by the Worker's own rule (src/domain/shards.ts); throws naming `where`. */
export function parseShards(value: unknown, where = 'SHARDS'): string[] {
  const parsed = parseShardNames(typeof value === 'string' ? value : undefined);
  if ('problem' in parsed) throw new Error(`${where}: ${parsed.problem}`);
  return parsed.names;
}

/** The directory and the shards of `environment` (undefined: the top level) in the config at `configPath`. */
export function d1Layout(configPath: string, environment?: string): D1Layout {
  const { rawConfig } = experimental_readRawConfig({ config: configPath });
  const where = environment === undefined ? configPath : `${configPath} [env.${environment}]`;
  const config: Unstable_RawEnvironment | undefined = environment === undefined ? rawConfig : rawConfig.env?.[environment];
  if (config === undefined) throw new Error(`${configPath} has no environment "${environment}"`);
  const configDir = resolve(configPath, '..');
  const declared = config.d1_databases ?? [];

  const binding = (name: string, migrations: string, declaredBy: string): D1Binding => {
    const database = declared.find((entry) => entry.binding === name);
    if (database === undefined) throw new Error(`${where}: ${declaredBy}, but no [[d1_databases]] has binding = "${name}"`);
    const migrationsDir = database.migrations_dir ?? 'migrations';
    if (!resolve(configDir, migrationsDir).split(sep).join('/').endsWith(`/${migrations}`)) {
      throw new Error(`${where}: ${name} has migrations_dir = "${migrationsDir}", not "${migrations}"`);
    }
    return { binding: name, databaseName: database.database_name, localId: database.preview_database_id ?? database.database_id ?? name, migrationsDir };
  };

  const shards = parseShards(config.vars?.SHARDS, `${where}: the var SHARDS`);
  return {
    directory: binding(DIRECTORY_BINDING, DIRECTORY_MIGRATIONS, 'the directory is DB'),
    shards: shards.map((name) => binding(name, SHARD_MIGRATIONS, `SHARDS names ${name}`)),
  };
}
