/**
 * The layering rules of the Worker (`src/`) and the CMS (`web/src/`), checked by
 * scripts/check-layers.ts (docs/ARCHITECTURE.md "Layout"): a module imports only from its own layer
 * or one below, never a lower layer its layer may not use, never a package its layer may not use,
 * nothing outside its tree but the named folders, and no circle of files.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** A tree of code in layers, bottom first: each layer a top-level folder or file of `root`. */
export type LayeredTree = {
  root: string;
  layers: string[];
  /** Folders outside the tree (from the repository's root) it may import. */
  outside: string[];
  /** Lower layers a layer still may not import (docs/ARCHITECTURE.md's "imports" column). */
  never: Record<string, string[]>;
  /** Packages a layer may not import. */
  neverPackages: Record<string, string[]>;
};

/** The Worker's and the CMS's layers. Services know nothing of HTTP; routes reach data only through services. */
export const TREES: LayeredTree[] = [
  {
    root: 'src',
    layers: ['lib', 'env.ts', 'db', 'auth', 'domain', 'schemas', 'data', 'views', 'chain', 'config.ts', 'services', 'app-env.ts', 'middleware', 'routes', 'queues', 'jobs', 'app.ts', 'index.ts'],
    outside: [],
    never: { 'env.ts': ['lib'], domain: ['env.ts', 'auth'], routes: ['data', 'views', 'db'] },
    neverPackages: { services: ['hono'] },
  },
  {
    root: 'web/src',
    layers: ['api', 'auth', 'components', 'lib', 'context', 'screens', 'app', 'test', 'main.tsx'],
    outside: ['sdk/src', 'src/domain'],
    never: {},
    neverPackages: {},
  },
];

const CODE = ['.ts', '.tsx'];
const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
const PACKAGE_IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"./][^'"]*)['"]/g;

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

/** Every breach of `trees`' rules under `repository`, one line each naming the file and the import. */
export function layerProblems(repository: string, trees: readonly LayeredTree[] = TREES): string[] {
  const problems: string[] = [];
  const show = (path: string) => relative(repository, path).split(sep).join('/');
  for (const tree of trees) {
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
      const source = readFileSync(file, 'utf8');
      for (const [, name = ''] of source.matchAll(PACKAGE_IMPORT)) {
        const refused = tree.neverPackages[layerOf(file)]?.find((pkg) => name === pkg || name.startsWith(`${pkg}/`));
        if (refused) problems.push(`${show(file)} imports '${name}': ${layerOf(file)} may not import ${refused}`);
      }
      for (const match of source.matchAll(IMPORT)) {
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
        } else if (tree.never[layerOf(file)]?.includes(layerOf(target))) {
          problems.push(`${show(file)} imports '${specifier}' (${show(target)}): ${layerOf(file)} may not import ${layerOf(target)}`);
        }
      }
      edges.set(file, imported);
    }
    for (const group of circles(edges)) problems.push(`import circle: ${group.map(show).join(' <-> ')}`);
  }
  return problems;
}

