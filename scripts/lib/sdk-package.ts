/**
 * The SDK as a package a partner installs (`npm run sdk:pack`): sdk/src staged with the Worker's
 * signing recipe beside it, compiled to ES modules and `.d.ts` files in `dist/`, with a
 * package.json whose version is the API document's. Nothing in the package reaches outside it.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The Worker's signing module, which the SDK includes (it imports nothing: `npm run sdk:check`). */
export const SHARED_SIGNING = 'src/auth/signature.ts';
const SIGNING_IMPORT = "'../../src/auth/signature'";
/** Where the package is staged and built (git-ignored). */
export const STAGE = 'sdk/.pack';

type SdkManifest = { name: string; description: string; dependencies: Record<string, string>; engines: Record<string, string> };

/**
 * A staged source file with its relative imports made explicit for Node's ES modules (`./x` →
 * `./x.js`, which TypeScript resolves to x.ts or x.d.ts), the signing recipe's to the staged copy.
 * Throws on any import that leaves the package.
 */
export function stagedSource(file: string, text: string): string {
  const local = file === 'signing.ts' ? text.replace(SIGNING_IMPORT, "'./signature.js'") : text;
  return local.replace(/(from\s+|import\s*\(\s*)'(\.{1,2}\/[^']*)'/g, (whole, lead: string, specifier: string) => {
    if (specifier.startsWith('../')) throw new Error(`sdk/src/${file} imports ${specifier}, outside the package`);
    return specifier.endsWith('.js') ? whole : `${lead}'${specifier}.js'`;
  });
}

/** The published manifest: sdk/package.json's name, description and dependencies, the document's version, dist/ as the entry. */
export function packageManifest(sdk: SdkManifest, version: string) {
  return {
    name: sdk.name,
    version,
    description: sdk.description,
    license: 'UNLICENSED',
    type: 'module',
    sideEffects: false,
    exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
    types: './dist/index.d.ts',
    module: './dist/index.js',
    files: ['dist', 'README.md', 'CHANGELOG.md'],
    engines: sdk.engines,
    dependencies: sdk.dependencies,
  };
}

const COMPILER_OPTIONS = {
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2022', 'DOM', 'DOM.Iterable'],
  types: [],
  strict: true,
  declaration: true,
  rootDir: 'src',
  outDir: 'dist',
  skipLibCheck: true,
  verbatimModuleSyntax: false,
};

/** Builds and packs the package at the version of sdk/openapi.json; answers the tarball's path (in sdk/, git-ignored). */
export function packSdk(root: string): { tarball: string; version: string } {
  const { info } = JSON.parse(readFileSync(join(root, 'sdk/openapi.json'), 'utf8')) as { info: { version: string } };
  const stage = buildSdkPackage(root, info.version);
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', join(root, 'sdk')], { cwd: stage, encoding: 'utf8' })) as { filename: string }[];
  const filename = packed[0]?.filename;
  if (!filename) throw new Error('npm pack named no tarball');
  return { tarball: join(root, 'sdk', filename), version: info.version };
}

/** Stages and compiles the package under `root`/STAGE; answers the staged directory, ready for `npm pack`. */
function buildSdkPackage(root: string, version: string): string {
  const stage = join(root, STAGE);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(join(stage, 'src'), { recursive: true });
  const sources = readdirSync(join(root, 'sdk/src')).filter((file) => file.endsWith('.ts'));
  for (const file of sources) writeFileSync(join(stage, 'src', file), stagedSource(file, readFileSync(join(root, 'sdk/src', file), 'utf8')));
  copyFileSync(join(root, SHARED_SIGNING), join(stage, 'src/signature.ts'));
  writeFileSync(join(stage, 'tsconfig.json'), JSON.stringify({ compilerOptions: COMPILER_OPTIONS, include: ['src'] }, null, 2));
  // The staging folder sits in the repository, so the compiler finds the dependencies' types in its node_modules.
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', stage], { stdio: 'inherit' });
  // tsc emits no .d.ts for a .d.ts input: the generated schema types are copied as they are.
  for (const file of sources.filter((name) => name.endsWith('.d.ts'))) copyFileSync(join(stage, 'src', file), join(stage, 'dist', file));
  rmSync(join(stage, 'src'), { recursive: true });
  rmSync(join(stage, 'tsconfig.json'));
  const sdk = JSON.parse(readFileSync(join(root, 'sdk/package.json'), 'utf8')) as SdkManifest;
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(packageManifest(sdk, version), null, 2)}\n`);
  for (const file of ['README.md', 'CHANGELOG.md']) copyFileSync(join(root, 'sdk', file), join(stage, file));
  return stage;
}
