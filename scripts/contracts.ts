/**
 * `npm run contracts`: compiles contracts/*.sol into src/chain/artifacts.generated.ts
 * (cached in .cache/contracts; `npm run typecheck` and the test global setup run it too).
 */
import { relative } from 'node:path';
import { compileContracts } from './lib/compile-contracts';

const started = performance.now();
try {
  const { generatedPath, cacheHit } = await compileContracts();
  const ms = Math.round(performance.now() - started);
  console.error(`contracts: ${relative(process.cwd(), generatedPath)} (${cacheHit ? 'cache hit' : 'compiled'}, ${ms} ms)`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
