import { env } from 'cloudflare:test';
import { afterEach, expect } from 'vitest';

/**
 * Every line the Worker logs while the suite's scenarios run is checked here (a setup file of the
 * workers project): one JSON object with `level` and a `message`, fields in snake_case, and never
 * a secret, a token, a signature or personal data (docs/DEPLOY.md, "Logs and alerts";
 * src/lib/log.ts). A line that breaks the rule fails the test during which it was written.
 * Tests print their own measurements with `console.info` and a label first: a line whose first
 * argument is not the only one is the test's, not the Worker's.
 */
const LEVELS = new Set(['debug', 'info', 'warn', 'error']);
const FIELD = /^[a-z][a-z0-9_]*$/;

/** What must never be in a log line, by what it would leak. */
const FORBIDDEN: Array<[what: string, pattern: RegExp]> = [
  ['an API key secret', /\bsk_[A-Za-z0-9]{8,}/],
  ['a webhook secret', /\bwhsec_[A-Za-z0-9+/=]{8,}/],
  ['a bearer token or JWT', /\bBearer\s|\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/],
  ['an email address', /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/],
];

/** The configuration's secrets, by name: their values must never be logged. */
const SECRETS = ['API_KEY_ENCRYPTION_KEY', 'WALLET_MNEMONIC', 'RELAYER_PRIVATE_KEY'] as const;

let problems: string[] = [];
/**
 * Values the tests made that no line may hold: every request signature signed (test/support/signing.ts).
 * A signature is 64 hex digits, like much ABI data in a chain's error, so it is matched exactly.
 */
const made = new Set<string>();

export function neverLogged(value: string): void {
  made.add(value);
}

/** The rule's breaches in one logged line (`args` as the console method got them). */
export function logLineProblems(args: unknown[]): string[] {
  if (args.length !== 1 || typeof args[0] !== 'string') return [];
  const text = args[0];
  let line: unknown;
  try {
    line = JSON.parse(text);
  } catch {
    return [`not one JSON object: ${text.slice(0, 200)}`];
  }
  if (typeof line !== 'object' || line === null || Array.isArray(line)) return [`not one JSON object: ${text.slice(0, 200)}`];
  const fields = line as Record<string, unknown>;
  const found: string[] = [];
  if (typeof fields.level !== 'string' || !LEVELS.has(fields.level)) found.push(`no level: ${text.slice(0, 200)}`);
  if (typeof fields.message !== 'string' || fields.message === '') found.push(`no message: ${text.slice(0, 200)}`);
  for (const name of Object.keys(fields)) if (!FIELD.test(name)) found.push(`field ${name} is not snake_case: ${text.slice(0, 200)}`);
  for (const [what, pattern] of FORBIDDEN) if (pattern.test(text)) found.push(`${what}: ${text.slice(0, 200)}`);
  for (const value of made) if (text.includes(value)) found.push(`a request signature the test signed: ${text.slice(0, 200)}`);
  for (const name of SECRETS) {
    const value = (env as unknown as Record<string, unknown>)[name];
    if (typeof value === 'string' && value.length >= 16 && text.includes(value)) found.push(`the value of ${name}: ${text.slice(0, 80)}…`);
  }
  return found;
}

/** Checks `args`, then writes them as the console would have. */
export function inspected(write: (...args: unknown[]) => void) {
  return (...args: unknown[]) => {
    problems.push(...logLineProblems(args));
    write(...args);
  };
}

for (const method of ['debug', 'log', 'info', 'warn', 'error'] as const) console[method] = inspected(console[method].bind(console));

afterEach(() => {
  const found = problems;
  problems = [];
  expect(found, 'log lines that break the logging rule (src/lib/log.ts)').toEqual([]);
});
