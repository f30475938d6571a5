/**
 * `npm run db:migrate`: applies migrations/directory to the directory (DB), then migrations/shard
 * to every shard the environment's var SHARDS names (docs/SCALING.md, "The directory and its
 * shards"): one `wrangler d1 migrations apply` per binding, in that order, stopping at the first
 * that fails (exit 1, naming the binding). wrangler runs with stdin ignored, so it never stops to
 * ask for confirmation. `npm run dev`, the end-to-end suite and the bench call it too
 * (migrateAll); the tests apply the same folders themselves (test/support/apply-migrations.ts).
 *
 *   npm run db:migrate -- --local [--persist-to <dir>] [-c <config>] [--env <name>]
 *   npm run db:migrate -- --remote --env staging
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { d1Layout } from './lib/d1-bindings';
import { offlineWranglerEnv } from './lib/offline-env';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WRANGLER = join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');

export type MigrateOptions = {
  /** `--local` (miniflare's files) or `--remote` (the Cloudflare account). */
  target: 'local' | 'remote';
  /** The wrangler config (absolute, or relative to the working directory). */
  config: string;
  /** `--env`: a named environment of the config; the top level if unset. */
  env?: string;
  /** `--persist-to`: where the local files are (`--local` only). */
  persistTo?: string;
};

/** One `wrangler d1 migrations apply` per database, the directory first. Throws if the config is not one of a directory and its shards. */
export function migrationSteps(options: MigrateOptions): { binding: string; migrationsDir: string; args: string[] }[] {
  const config = resolve(options.config);
  const { directory, shards } = d1Layout(config, options.env);
  const flags = [`--${options.target}`, ...(options.env ? ['--env', options.env] : []), ...(options.persistTo ? ['--persist-to', resolve(options.persistTo)] : []), '-c', config];
  return [directory, ...shards].map(({ binding, migrationsDir }) => ({ binding, migrationsDir, args: ['d1', 'migrations', 'apply', binding, ...flags] }));
}

/**
 * Runs the steps with `run` (wrangler's arguments → its exit code; it may also throw), stopping at
 * the first failure with an error naming its binding.
 */
export async function migrateAll(options: MigrateOptions, run: (args: string[]) => Promise<number>, log: (message: string) => void = () => {}): Promise<void> {
  for (const { binding, migrationsDir, args } of migrationSteps(options)) {
    log(`${binding}: ${migrationsDir}`);
    let code: number;
    try {
      code = await run(args);
    } catch (error) {
      throw new Error(`the migrations of ${binding} (${migrationsDir}) failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (code !== 0) throw new Error(`the migrations of ${binding} (${migrationsDir}) failed: wrangler exited with ${code}`);
  }
}

const USAGE = `Usage: npm run db:migrate -- (--local | --remote) [--env <name>] [--persist-to <dir>] [-c <config>]
  Applies migrations/directory to DB and migrations/shard to every binding in the environment's
  SHARDS, one wrangler d1 migrations apply each. docs/DEPLOY.md, "2. Database schema".`;

function cliOptions(argv: string[]): MigrateOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      local: { type: 'boolean', default: false },
      remote: { type: 'boolean', default: false },
      env: { type: 'string', short: 'e' },
      'persist-to': { type: 'string' },
      config: { type: 'string', short: 'c', default: join(ROOT, 'wrangler.toml') },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (values.local === values.remote) throw new Error('say which databases: --local or --remote');
  if (values.remote && values['persist-to'] !== undefined) throw new Error('--persist-to is for --local only');
  return { target: values.local ? 'local' : 'remote', config: values.config, env: values.env, persistTo: values['persist-to'] };
}

function runWrangler(args: string[], local: boolean): Promise<number> {
  return new Promise((done, fail) => {
    // stdin ignored: non-interactive, so `migrations apply` does not stop to ask for confirmation.
    const child = spawn(process.execPath, [WRANGLER, ...args], { cwd: ROOT, env: local ? offlineWranglerEnv() : process.env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', fail);
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

async function main(): Promise<void> {
  let options: MigrateOptions;
  try {
    options = cliOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`db:migrate: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exit(2);
  }
  const log = (message: string) => console.log(`[db:migrate] ${message}`);
  await migrateAll(options, (args) => runWrangler(args, options.target === 'local'), log);
  log(`done (${options.target}${options.env ? `, env ${options.env}` : ''})`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(`db:migrate: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
