/**
 * `npm run typecheck` runs this: the Worker (`src/`) and the CMS (`web/src/`) are built in layers
 * (docs/ARCHITECTURE.md "Layout"), and a module may import only from its own layer or one below.
 * Fails naming each import that goes up a layer, leaves its tree (the CMS may reach only `sdk/src`
 * and the Worker's pure `src/domain`), or closes a circle of files. Tests are not checked: they may
 * import anything. Usage: tsx scripts/check-layers.ts [root, default the repository]
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Each tree's layers, bottom first: a top-level folder or file of the tree. */
const TREES = [
  {
    root: 'src',
    layers: ['lib', 'env.ts', 'db', 'auth', 'domain', 'schemas', 'data', 'views', 'chain', 'config.ts', 'services', 'app-env.ts', 'middleware', 'routes', 'queues', 'jobs', 'app.ts', 'index.ts'],
    outside: [] as string[],
  },
  {
    root: 'web/src',
    layers: ['api', 'auth', 'components', 'lib', 'context', 'screens', 'app', 'test', 'main.tsx'],
    outside: ['sdk/src', 'src/domain'],
  },
];

const CODE = ['.ts', '.tsx'];
const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : codeFiles(path);
    const isCode = CODE.some((ext) => entry.name.endsWith(ext)) && !entry.name.endsWith('.d.ts');
    return isCode && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The file an import names (as the bundler resolves it), or undefined for anything but code. */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, ...CODE.map((ext) => base + ext), ...CODE.map((ext) => join(base, `index${ext}`))];
  return candidates.find((path) => CODE.some((ext) => path.endsWith(ext)) && existsSync(path) && statSync(path).isFile());
}

/** Strongly connected groups of more than one file (Tarjan): each is a circle of imports. */
function circles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) visit(next);
      if (stack.includes(next)) low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const group = stack.splice(stack.indexOf(node));
    if (group.length > 1) found.push(group);
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

function layerProblems(repository: string): string[] {
  const problems: string[] = [];
  const show = (path: string) => relative(repository, path).split(sep).join('/');
  for (const tree of TREES) {
    const root = join(repository, tree.root);
    const layerOf = (path: string) => relative(root, path).split(sep)[0] ?? '';
    const rankOf = (path: string) => tree.layers.indexOf(layerOf(path));
    const edges = new Map<string, Set<string>>();
    for (const file of codeFiles(root)) {
      if (rankOf(file) < 0) {
        problems.push(`${show(file)}: ${tree.root}/${layerOf(file)} is in no layer (add it to scripts/check-layers.ts and docs/ARCHITECTURE.md)`);
        continue;
      }
      const imported = new Set<string>();
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const specifier = match[1] ?? match[2] ?? '';
        const target = resolveImport(file, specifier);
        if (!target) continue;
        if (relative(root, target).startsWith('..')) {
          const allowed = tree.outside.some((dir) => !relative(join(repository, dir), target).startsWith('..'));
          if (!allowed) problems.push(`${show(file)} imports '${specifier}' (${show(target)}): outside ${tree.root}, which may reach only ${tree.outside.join(', ') || 'itself'}`);
          continue;
        }
        imported.add(target);
        if (rankOf(target) > rankOf(file)) {
          problems.push(`${show(file)} imports '${specifier}' (${show(target)}): ${layerOf(file)} is below ${layerOf(target)}`);
        }
      }
      edges.set(file, imported);
    }
    for (const group of circles(edges)) problems.push(`import circle: ${group.map(show).join(' <-> ')}`);
  }
  return problems;
}

const repository = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const problems = layerProblems(repository);
if (problems.length > 0) {
  const orders = TREES.map((tree) => `${tree.root}: ${tree.layers.join(' < ')}`).join('\n  ');
  console.error(`layers: ${problems.length} problem(s) with the layering (docs/ARCHITECTURE.md "Layout"; bottom first:\n  ${orders}):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.error('layers: no import goes up a layer, none leaves its tree, no circle');
