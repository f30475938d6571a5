/**
 * `npm run db:sql -- <name>`: after an edit of src/db/sql/*.sql, writes the migration that makes a
 * shard's triggers and views exactly those files (docs/ARCHITECTURE.md, "Rules in SQL"; they are
 * shard SQL, docs/SCALING.md). The shard's current set is replayed from migrations/shard/*.sql;
 * when it already equals the files (comments and spacing aside) nothing is written. Otherwise
 * drizzle-kit makes an empty custom migration of the shard's (drizzle.config.ts, journal and
 * snapshot included) and this fills it: drop every trigger and view, create every one from the
 * files. Always all of them: the migration is exact whatever came before, and a trigger's text is
 * read in its file, never in migrations.
 *
 * @example
 * npm run db:sql -- tier_placement_view
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { allDefinitions, replacementMigration, replayedDefinitions, sameDefinitions } from './lib/sql-definitions';

const root = fileURLToPath(new URL('..', import.meta.url));
const sqlFolder = `${root}src/db/sql/`;
const migrationsFolder = `${root}migrations/shard/`;

const name = process.argv[2];
if (name === undefined || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: npm run db:sql -- <migration_name> (lowercase letters, digits and _)');
  process.exit(1);
}

const sqlFiles = (folder: string) => readdirSync(folder).filter((file) => file.endsWith('.sql')).sort();
const definitions = allDefinitions(Object.fromEntries(sqlFiles(sqlFolder).map((file) => [file, readFileSync(sqlFolder + file, 'utf8')])));
const live = replayedDefinitions(sqlFiles(migrationsFolder).map((file) => ({ file, text: readFileSync(migrationsFolder + file, 'utf8') })));

if (sameDefinitions(live, definitions)) {
  console.info(`db:sql: the migrations already leave exactly the ${definitions.length} definitions of src/db/sql: nothing to write`);
  process.exit(0);
}

execFileSync('npx', ['drizzle-kit', 'generate', '--config', 'drizzle.config.ts', '--custom', '--name', name], { cwd: root, stdio: 'inherit' });
const journal = JSON.parse(readFileSync(`${migrationsFolder}meta/_journal.json`, 'utf8')) as { entries: { tag: string }[] };
const tag = journal.entries.at(-1)?.tag;
if (tag === undefined || !tag.endsWith(name)) throw new Error(`db:sql: drizzle-kit did not add a migration named ${name}`);
writeFileSync(`${migrationsFolder}${tag}.sql`, replacementMigration(definitions, live.values()));
console.info(`db:sql: wrote migrations/shard/${tag}.sql (${definitions.length} triggers and views from src/db/sql); commit it with the files`);
