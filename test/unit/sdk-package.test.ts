import { describe, expect, it } from 'vitest';
import { packageManifest, stagedSource } from '../../scripts/lib/sdk-package';

describe('the SDK package', () => {
  it('makes relative imports explicit for Node, and points the signing recipe at the copy inside the package', () => {
    const source = "import { a } from './errors';\nexport type { b } from './schema';\nimport x from 'openapi-fetch';\nconst lazy = import('./retries');\n";
    expect(stagedSource('gateway.ts', source)).toBe("import { a } from './errors.js';\nexport type { b } from './schema.js';\nimport x from 'openapi-fetch';\nconst lazy = import('./retries.js');\n");
    expect(stagedSource('signing.ts', "import { hmacHex } from '../../src/auth/signature';\n")).toBe("import { hmacHex } from './signature.js';\n");
  });

  it('refuses an import that leaves the package', () => {
    expect(() => stagedSource('gateway.ts', "import { x } from '../../src/lib/errors';\n")).toThrow('sdk/src/gateway.ts imports ../../src/lib/errors, outside the package');
  });

  it('publishes dist/ as ES modules with types, the document version and the SDK\'s own dependencies only', () => {
    const manifest = packageManifest({ name: '@loyalty/sdk', description: 'd', engines: { node: '>=20' }, dependencies: { 'openapi-fetch': '0.17.0', standardwebhooks: '1.1.1' } }, '1.2.3');
    expect(manifest).toMatchObject({
      name: '@loyalty/sdk',
      version: '1.2.3',
      type: 'module',
      sideEffects: false,
      exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
      types: './dist/index.d.ts',
      files: ['dist', 'README.md', 'CHANGELOG.md'],
      engines: { node: '>=20' },
    });
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch', 'standardwebhooks']);
  });
});
