import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { layerProblems, type LayeredTree } from '../../scripts/lib/layers';

/** A tree like the Worker's, small: lib < data < services < routes. */
const TREE: LayeredTree = {
  root: 'src',
  layers: ['lib', 'data', 'services', 'routes'],
  outside: ['shared'],
  never: { routes: ['data'] },
  neverPackages: { services: ['hono'] },
};

let repository = '';
afterEach(() => rmSync(repository, { recursive: true, force: true }));

/** A repository holding `files` (path -> source). */
function repositoryOf(files: Record<string, string>): string {
  repository = mkdtempSync(join(tmpdir(), 'layers-'));
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(repository, path)), { recursive: true });
    writeFileSync(join(repository, path), source);
  }
  return repository;
}

const CLEAN = {
  'src/lib/ids.ts': 'export const id = 1;',
  'src/data/rows.ts': "import { id } from '../lib/ids';\nexport const rows = [id];",
  'src/services/rows.ts': "import { rows } from '../data/rows';\nimport { z } from 'zod';\nexport const list = () => z.array(z.number()).parse(rows);",
  'src/routes/rows.get.ts': "import { list } from '../services/rows';\nimport type { Context } from 'hono';\nimport { shared } from '../../shared/value';\nexport const get = (c: Context) => c.json([list(), shared]);",
  'src/routes/rows.test.ts': "import { rows } from '../data/rows';\nvoid rows;",
  'shared/value.ts': 'export const shared = 1;',
};

describe('the layer check (scripts/lib/layers.ts)', () => {
  it('finds nothing in a tree that keeps its layers (tests may import anything)', () => {
    expect(layerProblems(repositoryOf(CLEAN), [TREE])).toEqual([]);
  });

  it('names an import that goes up a layer', () => {
    const problems = layerProblems(repositoryOf({ ...CLEAN, 'src/data/up.ts': "import { list } from '../services/rows';\nvoid list;" }), [TREE]);
    expect(problems).toEqual(["src/data/up.ts imports '../services/rows' (src/services/rows.ts): data is below services"]);
  });

  it('names an import of a lower layer the layer may not use (routes reach data through services)', () => {
    const problems = layerProblems(repositoryOf({ ...CLEAN, 'src/routes/skip.ts': "import { rows } from '../data/rows';\nvoid rows;" }), [TREE]);
    expect(problems).toEqual(["src/routes/skip.ts imports '../data/rows' (src/data/rows.ts): routes may not import data"]);
  });

  it('names a package the layer may not use, and its subpaths', () => {
    const problems = layerProblems(repositoryOf({ ...CLEAN, 'src/services/http.ts': "import type { Context } from 'hono';\nimport { createMiddleware } from 'hono/factory';\nexport type C = Context;\nvoid createMiddleware;" }), [TREE]);
    expect(problems).toEqual(["src/services/http.ts imports 'hono': services may not import hono", "src/services/http.ts imports 'hono/factory': services may not import hono"]);
  });

  it('names an import outside the tree but the folders it may reach, a file in no layer, and a circle', () => {
    const problems = layerProblems(
      repositoryOf({
        ...CLEAN,
        'scripts/tool.ts': 'export const tool = 1;',
        'src/lib/out.ts': "import { tool } from '../../scripts/tool';\nvoid tool;",
        'src/jobs/sweep.ts': 'export const sweep = 1;',
        'src/lib/a.ts': "import { b } from './b';\nexport const a = () => b;",
        'src/lib/b.ts': "import { a } from './a';\nexport const b = () => a;",
      }),
      [TREE],
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        "src/lib/out.ts imports '../../scripts/tool' (scripts/tool.ts): outside src, which may reach only shared",
        'src/jobs/sweep.ts: src/jobs is in no layer (add it to scripts/check-layers.ts and docs/ARCHITECTURE.md)',
        expect.stringMatching(/^import circle: src\/lib\/(a|b)\.ts <-> src\/lib\/(a|b)\.ts$/),
      ]),
    );
    expect(problems).toHaveLength(3);
  });
});
