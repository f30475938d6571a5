/**
 * `npm run sdk:generate`: writes sdk/openapi.json (the document the app serves, built offline with
 * `openApiDocument()` from src/app.ts, no server or bindings), sdk/src/schema.d.ts
 * (openapi-typescript) and sdk/src/operations.generated.ts (the operation map).
 * `npm run sdk:check` (run by `npm test`): fails when any of them differs from what the code gives.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { breakingChanges, nextSurface, parseSurface, surfaceText, type SurfaceDocument } from './lib/api-surface';
import { compileContracts } from './lib/compile-contracts';
import { SDK_DOCUMENT, documentText, sdkFiles, type Document } from './lib/sdk-files';
import { SHARED_SIGNING } from './lib/sdk-package';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const mode = process.argv[2];
if (mode !== 'generate' && mode !== 'check') {
  console.error('Usage: tsx scripts/sdk.ts generate|check');
  process.exit(2);
}

const SDK_SURFACE = 'sdk/api-surface.txt';
const SDK_MANIFEST = 'sdk/package.json';
const read = (path: string) => (existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), 'utf8') : undefined);

/** The app imports the generated contract artifacts (git-ignored): compile them first, then load it. */
async function servedDocument(): Promise<Document> {
  await compileContracts();
  // A specifier tsc does not follow: the app is Worker code, type-checked under tsconfig.json, not
  // with this script's Node types (tsconfig.node.json).
  const app: string = '../src/app.ts';
  const { openApiDocument } = (await import(app)) as { openApiDocument: () => unknown };
  // Through JSON, as the route serves it (c.json): what is not JSON (undefined fields) drops out.
  return JSON.parse(JSON.stringify(openApiDocument())) as Document;
}

/**
 * The release files beside the generated ones: the surface released under the document's major
 * (scripts/lib/api-surface.ts) and sdk/package.json with the document's version.
 */
function releaseFiles(document: Document): Map<string, string> {
  const committed = read(SDK_SURFACE);
  const surface = nextSurface(document as SurfaceDocument, committed === undefined ? undefined : parseSurface(committed));
  const manifest = { ...(JSON.parse(read(SDK_MANIFEST) ?? '{}') as object), version: (document as SurfaceDocument).info.version };
  return new Map([
    [SDK_SURFACE, surfaceText(surface)],
    [SDK_MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`],
  ]);
}

/** The released lines the document dropped without a new major version: each would break a caller. */
function breaking(document: Document): string[] {
  const committed = read(SDK_SURFACE);
  return committed === undefined ? [] : breakingChanges(document as SurfaceDocument, parseSurface(committed));
}

try {
  const document = await servedDocument();
  if (mode === 'generate') {
    const removed = breaking(document);
    if (removed.length > 0) console.error(`sdk: warning: ${removed.length} released part(s) of the API removed without a new major version; \`npm run sdk:check\` will refuse it`);
    const files = new Map([...(await sdkFiles(document)), ...releaseFiles(document)]);
    for (const [path, text] of files) writeFileSync(join(ROOT, path), text);
    console.error(`sdk: wrote ${[...files.keys()].join(', ')}`);
  } else {
    // sdk/src/signing.ts includes the Worker's signing module: an import there would drag Worker code into the SDK.
    if (/^\s*(import|export .* from)\b/m.test(read(SHARED_SIGNING) ?? '')) {
      console.error(`sdk: ${SHARED_SIGNING} imports something, and the SDK includes it (sdk/src/signing.ts): keep it pure, WebCrypto only`);
      process.exit(1);
    }
    const removed = breaking(document);
    if (removed.length > 0) {
      const shown = removed.slice(0, 20).map((line) => `  ${line}`).join('\n');
      console.error(`sdk: this change would break callers of the released API (${removed.length} removed):\n${shown}${removed.length > 20 ? '\n  ...' : ''}\nPut them back, or move the major version (SERVICE_VERSION, src/routes/platform/info.ts) and run \`npm run sdk:generate\`.`);
      process.exit(1);
    }
    const stale: string[] = [];
    for (const [path, text] of releaseFiles(document)) if (read(path) !== text) stale.push(`${path} (differs from what the document's version and surface make)`);
    const committed = read(SDK_DOCUMENT);
    if (committed !== documentText(document)) stale.push(`${SDK_DOCUMENT} (differs from the document the routes give)`);
    // The derived files are checked against the committed document, so each staleness is named once.
    const derivedFrom = committed === undefined ? document : (JSON.parse(committed) as Document);
    for (const [path, text] of await sdkFiles(derivedFrom)) {
      if (path !== SDK_DOCUMENT && read(path) !== text) stale.push(`${path} (differs from what the generator makes of ${SDK_DOCUMENT})`);
    }
    if (stale.length > 0) {
      console.error(`sdk: the committed SDK is stale; run \`npm run sdk:generate\` and commit the result:\n  ${stale.join('\n  ')}`);
      process.exit(1);
    }
    console.error('sdk: up to date with the OpenAPI document');
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
