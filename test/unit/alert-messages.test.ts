import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * docs/DEPLOY.md tells operators the exact log messages to alert on; a renamed message would
 * silently stop an alert. These hold the table and the Worker's `log(...)` calls together.
 */
const SRC = new URL('../../src/', import.meta.url);
const sources = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file, text: readFileSync(new URL(file, SRC), 'utf8') }));

/** Every `log(level, 'message', ...)` call in src/ (src/lib/log.ts defines it). */
const LINE = /\blog\(\s*'(debug|info|warn|error)',\s*'([^']+)'/g;
const written = sources.flatMap(({ file, text }) => [...text.matchAll(LINE)].map((match) => ({ file, level: match[1]!, message: match[2]! })));

/** The quoted messages in the "What to alert on" table of docs/DEPLOY.md. */
function alertTableMessages(): string[] {
  const deploy = readFileSync(new URL('../../docs/DEPLOY.md', import.meta.url), 'utf8');
  const section = deploy.slice(deploy.indexOf('**What to alert on.**'));
  const table = section.slice(section.indexOf('| watch | match |'), section.indexOf('\n\n', section.indexOf('| watch | match |')));
  return [...table.matchAll(/"([^"]+)"/g)].map((match) => match[1]!);
}

describe('the alert table of docs/DEPLOY.md and the log lines of src/', () => {
  it('every log call in src/ names its message as a literal, so this scan sees them all', () => {
    const calls = sources.flatMap(({ file, text }) => [...text.matchAll(/\blog\(/g)].map(() => file)).filter((file) => file !== 'lib/log.ts');
    expect(calls.length).toBe(written.length);
    expect(written.length).toBeGreaterThan(30);
  });

  it('every message the table names is one the Worker writes', () => {
    const messages = new Set(written.map((line) => line.message));
    const named = alertTableMessages();
    expect(named.length).toBeGreaterThan(15);
    expect(named.filter((message) => !messages.has(message))).toEqual([]);
  });

  it('every error line the Worker writes is in the table', () => {
    const named = new Set(alertTableMessages());
    expect(written.filter((line) => line.level === 'error' && !named.has(line.message))).toEqual([]);
  });
});
