/**
 * `npm run typecheck` runs this: fails naming each import that breaks the layering of the Worker
 * and the CMS (scripts/lib/layers.ts; docs/ARCHITECTURE.md "Layout"). Tests are not checked: they
 * may import anything. Usage: tsx scripts/check-layers.ts [root, default the repository]
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { layerProblems, TREES } from './lib/layers';

const repository = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const problems = layerProblems(repository);
if (problems.length > 0) {
  const orders = TREES.map((tree) => `${tree.root}: ${tree.layers.join(' < ')}`).join('\n  ');
  console.error(`layers: ${problems.length} problem(s) with the layering (docs/ARCHITECTURE.md "Layout"; bottom first:\n  ${orders}):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.error('layers: no import goes up a layer or skips to one its layer may not use, none leaves its tree, no circle');
