/**
 * Opaque, unguessable ids: a short resource prefix plus 128 random bits (base32, lowercase),
 * e.g. `cus_3k9...`. Prefixes make ids recognisable in logs and support tickets.
 */
const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';

export function randomToken(bytes: number): string {
  const data = crypto.getRandomValues(new Uint8Array(bytes));
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of data) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

export function newId(prefix: string): string {
  return `${prefix}_${randomToken(16)}`;
}
