/**
 * Structured log lines of settlement. Nothing logged carries a key, a mnemonic or an RPC URL:
 * reasons are cut from viem's error text, whose `details`/`shortMessage` name no URL.
 */
export function logEvent(level: 'info' | 'warn' | 'error', message: string, fields: Record<string, unknown>): void {
  const line = JSON.stringify({ level, message, ...fields });
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
}

/** A short, URL-free reason for an error (viem's shortMessage, with any URL stripped). */
export function reasonOf(error: unknown): string {
  const short = typeof error === 'object' && error !== null && 'shortMessage' in error && typeof error.shortMessage === 'string' ? error.shortMessage : undefined;
  const details = typeof error === 'object' && error !== null && 'details' in error && typeof error.details === 'string' ? error.details : undefined;
  const text = [short ?? (error instanceof Error ? error.message : String(error)), details].filter(Boolean).join(': ');
  return text.replace(/https?:\/\/\S+/g, '<rpc>').slice(0, 300);
}
