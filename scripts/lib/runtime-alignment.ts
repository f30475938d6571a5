import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

type Manifest = { name: string; version: string };

/**
 * The package.json of `name` as Node's lookup from `from` finds it, read from the node_modules
 * folders directly: some of these packages export neither their manifest nor a CommonJS entry.
 */
function manifestOf(from: NodeRequire, name: string): { manifest: Manifest; require: NodeRequire } {
  for (const folder of from.resolve.paths(name) ?? []) {
    const path = join(folder, name, 'package.json');
    if (existsSync(path)) return { manifest: JSON.parse(readFileSync(path, 'utf8')) as Manifest, require: createRequire(path) };
  }
  throw new Error(`${name} is not installed (run npm ci)`);
}

/**
 * The tests must run on the runtime `npm run dev` runs on. @cloudflare/vitest-pool-workers pins
 * its own wrangler and miniflare (and through them workerd); if those ever differ from the
 * project's, the suite would exercise another runtime, so the run stops here and says why.
 */
export function assertOneRuntime(): Record<'wrangler' | 'miniflare' | 'workerd', string> {
  const root = createRequire(import.meta.url);
  const chain = (from: NodeRequire) => {
    const wrangler = manifestOf(from, 'wrangler');
    const miniflare = manifestOf(wrangler.require, 'miniflare');
    const workerd = manifestOf(miniflare.require, 'workerd');
    return { wrangler: wrangler.manifest.version, miniflare: miniflare.manifest.version, workerd: workerd.manifest.version };
  };
  const dev = chain(root);
  const pool = manifestOf(root, '@cloudflare/vitest-pool-workers').require;
  const test = { ...chain(pool), miniflare: manifestOf(pool, 'miniflare').manifest.version };
  for (const name of ['wrangler', 'miniflare', 'workerd'] as const) {
    if (dev[name] !== test[name]) {
      throw new Error(`${name} differs: npm run dev runs ${dev[name]}, the tests ${test[name]}. Pin @cloudflare/vitest-pool-workers to the release that ships wrangler ${dev.wrangler}.`);
    }
  }
  return dev;
}
