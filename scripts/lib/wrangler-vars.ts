/**
 * Reads the `[vars]` table and the cron triggers of wrangler.toml (top level, not per environment).
 * wrangler.toml keeps its vars as `KEY = "string"` lines and its crons on one `crons = [...]` line,
 * which is all this small reader understands; anything else in those tables is ignored.
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

/** The `crons` of wrangler.toml's `[triggers]` table (one line, `crons = ["...", ...]`). */
export function readWranglerCrons(path = join(ROOT, 'wrangler.toml')): string[] {
  let inTriggers = false;
  for (const raw of readFileSync(path, 'utf8').split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      inTriggers = line === '[triggers]';
      continue;
    }
    const match = inTriggers ? /^crons\s*=\s*\[(.*)\]\s*(?:#.*)?$/.exec(line) : null;
    if (match) return [...(match[1] ?? '').matchAll(/"([^"]*)"|'([^']*)'/g)].map(([, double, single]) => double ?? single ?? '');
  }
  return [];
}
