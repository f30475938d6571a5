/**
 * Reads the `[vars]` table of wrangler.toml (top level, not per environment). wrangler.toml keeps
 * its vars as `KEY = "string"` lines, which is all this small reader understands; anything else
 * in the table is ignored.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './dev-files';

export function readWranglerVars(path = join(ROOT, 'wrangler.toml')): Record<string, string> {
  const vars: Record<string, string> = {};
  let inVars = false;
  for (const raw of readFileSync(path, 'utf8').split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      inVars = line === '[vars]';
      continue;
    }
    if (!inVars) continue;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')\s*(?:#.*)?$/.exec(line);
    if (match?.[1]) vars[match[1]] = match[2] !== undefined ? (JSON.parse(`"${match[2]}"`) as string) : (match[3] ?? '');
  }
  return vars;
}

/** A var the scripts cannot work without. */
export function requireVar(vars: Record<string, string>, name: string): string {
  const value = vars[name];
  if (!value) throw new Error(`wrangler.toml [vars] has no ${name}`);
  return value;
}
