/**
 * Copies the API reference's files (src/routes/docs/files.ts) from node_modules into the Worker's
 * static assets directory, at the path the Worker serves them from (public/api/v1/docs/, git-ignored).
 * Run by wrangler's [build] command before `wrangler dev` and `wrangler deploy` (dry runs included),
 * and by the test global setup. A file already identical is left alone, so `wrangler dev`, which
 * re-runs the build on every change under src/, does not reload for nothing.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOCS_PACKAGE, DOCS_URL, docsFileNames } from '../../src/routes/docs/files';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
/** wrangler.toml [assets] directory. */
export const ASSETS_DIR = join(ROOT, 'public');

export function copyDocsAssets(): { directory: string; copied: string[] } {
  const source = dirname(require.resolve(`${DOCS_PACKAGE}/package.json`));
  const directory = join(ASSETS_DIR, ...DOCS_URL.split('/'));
  mkdirSync(directory, { recursive: true });
  const copied = docsFileNames.filter((name) => {
    const from = join(source, name);
    const to = join(directory, name);
    if (existsSync(to) && readFileSync(to).equals(readFileSync(from))) return false;
    copyFileSync(from, to);
    return true;
  });
  return { directory, copied };
}
