/**
 * `npm run sdk:pack`: the SDK as a package tarball a partner installs with `npm install <tarball>`
 * (scripts/lib/sdk-package.ts): compiled ES modules and type declarations, the signing recipe
 * inside, versioned as the API document is. Prints the tarball's path.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packSdk } from './lib/sdk-package';

try {
  const { tarball, version } = packSdk(resolve(dirname(fileURLToPath(import.meta.url)), '..'));
  console.error(`sdk: packed ${version}`);
  console.log(tarball);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
