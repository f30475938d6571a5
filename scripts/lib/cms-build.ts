/**
 * Builds the CMS (web/, React + Vite) into the Worker's static assets (public/index.html and
 * public/assets/; web/vite.config.ts keeps public/api/v1/docs/). Run by wrangler's [build] command
 * before every `wrangler dev` and `wrangler deploy`, and by `npm run test:e2e`.
 *
 * wrangler dev re-runs [build] on every change under src/: a build whose output is newer than every
 * source it reads is skipped, so editing the Worker does not rebuild (and briefly remove) the CMS.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './dev-files';

export const WEB_DIR = join(ROOT, 'web');
export const VITE_CONFIG = join(WEB_DIR, 'vite.config.ts');
const OUTPUT = join(ROOT, 'public', 'index.html');
/** What the CMS bundle is made of: its own code, the typed client it calls the API through, the lockfile. */
const SOURCES = [WEB_DIR, join(ROOT, 'sdk', 'src'), join(ROOT, 'package-lock.json')];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

export type CmsBuildResult = 'built' | 'up to date' | 'no CMS (web/vite.config.ts absent)';

/** @example const result = await buildCms({ force: process.argv.includes('--force') }); */
export async function buildCms({ force = false } = {}): Promise<CmsBuildResult> {
  if (!existsSync(VITE_CONFIG)) return 'no CMS (web/vite.config.ts absent)';
  if (!force && existsSync(OUTPUT) && statSync(OUTPUT).mtimeMs > Math.max(...SOURCES.map(newestMtime))) return 'up to date';
  // Loaded only when needed: the [build] command also runs where only the docs copy is wanted.
  const { build } = await import('vite');
  await build({ configFile: VITE_CONFIG, logLevel: 'warn' });
  return 'built';
}
