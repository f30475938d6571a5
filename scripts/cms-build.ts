/**
 * The CMS into public/ (scripts/lib/cms-build.ts): wrangler.toml's [build] runs it after the API
 * reference's copy, before `wrangler dev` and `wrangler deploy`. `--force` rebuilds even when up to date.
 */
import { buildCms } from './lib/cms-build';

try {
  console.error(`cms: ${await buildCms({ force: process.argv.includes('--force') })}`);
} catch (error) {
  console.error(`cms: the build failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
