/** Anything that looks like a URL: an RPC provider's may carry its key in the path or query. */
const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;

function stringField(error: unknown, name: string): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const value: unknown = Reflect.get(error, name);
  return typeof value === 'string' ? value : undefined;
}

/**
 * What a log line says of an error: short, and never a key, a mnemonic or an RPC URL. viem's
 * `shortMessage`/`details` name no URL (its full message does), and any URL left is blanked.
 */
export function reasonOf(error: unknown): string {
  const short = stringField(error, 'shortMessage');
  const details = stringField(error, 'details');
  const text = [short ?? (error instanceof Error ? error.message : String(error)), details === short ? undefined : details].filter(Boolean).join(': ');
  return text.replace(URL_PATTERN, '<rpc url>').slice(0, 300);
}
