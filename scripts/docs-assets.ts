/**
 * `npm run docs:assets`: the API reference's files into public/api/v1/docs/ (scripts/lib/docs-assets.ts).
 * wrangler.toml's [build] runs it before `wrangler dev` and `wrangler deploy`; by hand it is never needed.
 */
import { relative } from 'node:path';
import { copyDocsAssets } from './lib/docs-assets';

try {
  const { directory, copied } = copyDocsAssets();
  console.error(`docs assets: ${relative(process.cwd(), directory)} (${copied.length > 0 ? `copied ${copied.join(', ')}` : 'up to date'})`);
} catch (error) {
  console.error(`docs assets: ${error instanceof Error ? error.message : String(error)} (run npm ci)`);
  process.exit(1);
}
