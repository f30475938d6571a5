import { afterEach, vi } from 'vitest';
import { inspected } from './log-capture';

/**
 * Captures what the Worker logs with console.error until the test ends, so a test that provokes an
 * error on purpose asserts the log instead of printing a stack trace that reads like a failure.
 */
export function errorLog(): () => string {
  const lines: string[] = [];
  // Still checked against the logging rule (log-capture.ts), only not printed.
  vi.spyOn(console, 'error').mockImplementation(inspected((...args: unknown[]) => void lines.push(args.map(String).join(' '))));
  return () => lines.join('\n');
}

afterEach(() => vi.restoreAllMocks());
