/**
 * The bench's own state directory (bench/.state, git-ignored): its secrets and signing key, the
 * vars file `wrangler dev` reads instead of `.dev.vars` (which stays the developer's, untouched),
 * the two local persistence directories (the Worker's and the baseline's), the server logs and
 * `manifest.json` (tenants, keys and the ids of the loaded data). Wiped per run unless `--reuse`.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { english, generateMnemonic } from 'viem/accounts';
import { devVarLine, generateSigningKey, ROOT, type DevSigningKey } from '../../scripts/lib/dev-files';
import type { GatewayKey } from '../../scripts/lib/api-client';

export const BENCH_DIR = join(ROOT, 'bench');
export const STATE_DIR = join(BENCH_DIR, '.state');
export const RESULTS_DIR = join(BENCH_DIR, 'results');
export const WORKER_CONFIG = join(ROOT, 'wrangler.toml');
export const BASELINE_CONFIG = join(BENCH_DIR, 'baseline', 'wrangler.toml');
export const paths = {
  envFile: join(STATE_DIR, 'worker.env'),
  signingKey: join(STATE_DIR, 'portal-signing-key.json'),
  manifest: join(STATE_DIR, 'manifest.json'),
  workerPersist: join(STATE_DIR, 'worker'),
  baselinePersist: join(STATE_DIR, 'baseline'),
  migrationsLog: join(STATE_DIR, 'migrations.log'),
  workerLog: join(STATE_DIR, 'worker.log'),
  baselineLog: join(STATE_DIR, 'baseline.log'),
};

/** Where wrangler and Miniflare keep local D1 databases under a `--persist-to` directory. */
export function d1PersistOf(persistTo: string): string {
  return join(persistTo, 'v3', 'd1');
}

/** Ids the routes pick from at random (a random sample of the loaded rows, not all of them). */
export type IdSample = { customerIds: string[]; earnerIds: string[]; transactionIds: string[]; redemptionIds: string[] };

export type BenchTenant = {
  id: string;
  slug: string;
  /** The binding of the shard its rows are in (the directory placed it when the Worker created it). */
  shard: string;
  customers: number;
  apiKey: GatewayKey;
  /** Active, unlimited stock, 1 XP: every earner can redeem it again and again under load. */
  benchRewardId: string;
  /** The cohort with the most members, and that many. */
  cohort: { id: string; members: number };
  sample: IdSample;
};

export type Manifest = {
  adminEmail: string;
  tenants: { small: BenchTenant; large: BenchTenant };
  /** What the baseline Worker checks its signatures with (a var of its own, not an API key). */
  baselineKey: GatewayKey;
};

/** Empties the state directory (a fresh run) and creates its secrets and the Worker's vars file. */
export async function freshState(): Promise<DevSigningKey> {
  rmSync(STATE_DIR, { recursive: true, force: true });
  mkdirSync(STATE_DIR, { recursive: true });
  const key = await generateSigningKey();
  writeFileSync(paths.signingKey, `${JSON.stringify(key, null, 2)}\n`, { mode: 0o600 });
  const vars: Record<string, string> = {
    AUTH_JWKS: JSON.stringify({ keys: [key.publicJwk] }),
    API_KEY_ENCRYPTION_KEY: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64'),
    WALLET_MNEMONIC: generateMnemonic(english),
  };
  const lines = ['# npm run bench only (generated, git-ignored): no chains, so every route runs off-chain.'];
  lines.push(...Object.entries(vars).map(([name, value]) => devVarLine(name, value)));
  writeFileSync(paths.envFile, `${lines.join('\n')}\n`, { mode: 0o600 });
  return key;
}

/** The state of an earlier run, for `--reuse`; explains what is missing instead of failing later. */
export function reusedState(): { key: DevSigningKey; manifest: Manifest } {
  for (const path of [paths.signingKey, paths.envFile, paths.manifest]) {
    if (!existsSync(path)) throw new Error(`--reuse: ${path} is missing (run once without --reuse first)`);
  }
  const manifest = JSON.parse(readFileSync(paths.manifest, 'utf8')) as Manifest;
  if (!manifest.tenants.small.shard || !manifest.tenants.large.shard) {
    throw new Error(`--reuse: ${paths.manifest} was written before tenant shards (no tenant's shard): run once without --reuse`);
  }
  return { key: JSON.parse(readFileSync(paths.signingKey, 'utf8')) as DevSigningKey, manifest };
}

export function writeManifest(manifest: Manifest): void {
  writeFileSync(paths.manifest, `${JSON.stringify(manifest)}\n`, { mode: 0o600 });
}

/**
 * Gives the baseline Worker the very databases the Worker has (same data, same size): the D1
 * files (the directory's and every shard's) are copied while neither server runs. Both configs
 * name the same database ids, so each file has the same name under both persistence directories.
 */
export function copyDatabaseToBaseline(): void {
  const from = join(d1PersistOf(paths.workerPersist), 'miniflare-D1DatabaseObject');
  const to = join(d1PersistOf(paths.baselinePersist), 'miniflare-D1DatabaseObject');
  rmSync(paths.baselinePersist, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  for (const file of readdirSync(from)) copyFileSync(join(from, file), join(to, file));
}
