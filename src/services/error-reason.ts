/**
 * What a log line says of an error: short, and never a key, a mnemonic or an RPC URL. viem's
 * `shortMessage`/`details` name no URL, and any URL left is cut.
 */
export function reasonOf(error: unknown): string {
  const short = typeof error === 'object' && error !== null && 'shortMessage' in error && typeof error.shortMessage === 'string' ? error.shortMessage : undefined;
  const details = typeof error === 'object' && error !== null && 'details' in error && typeof error.details === 'string' ? error.details : undefined;
  const text = [short ?? (error instanceof Error ? error.message : String(error)), details].filter(Boolean).join(': ');
  return text.replace(/https?:\/\/\S+/g, '<rpc>').slice(0, 300);
}
