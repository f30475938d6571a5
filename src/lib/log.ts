/**
 * The Worker's one way to write a log line (docs/DEPLOY.md, "Logs and alerts"): one JSON object
 * per line, which Workers Logs indexes field by field. `message` is a fixed sentence an operator's
 * alert matches exactly; what varies goes in fields, snake_case: `request_id` where there is a
 * request, `tenant_id` where the tenant is known, ids of what the line is about. Never a secret,
 * a token, a signature or personal data (an email, a name): ids only. test/support/log-capture.ts
 * checks every line the test suite's scenarios make.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type LogFields = { request_id?: string; tenant_id?: string } & Record<string, unknown>;

const WRITERS: Record<LogLevel, (line: string) => void> = {
  debug: (line) => console.debug(line),
  info: (line) => console.info(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
};

export function log(level: LogLevel, message: string, fields: LogFields = {}): void {
  WRITERS[level](JSON.stringify({ level, message, ...fields }));
}
