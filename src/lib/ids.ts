/**
 * Opaque, unguessable ids: a short resource prefix, then 26 lowercase base32 characters: the
 * creation time (48 bits of milliseconds, 10 characters) and 80 random bits (16 characters), e.g.
 * `cus_...`. Prefixes make ids recognisable in logs and support tickets. Time first, so ids made
 * later sort later: a table's or an index's new keys land at its end instead of on a random page,
 * which keeps bulk writes (an import's thousand rows) from slowing as the tables grow; 80 random
 * bits keep them unguessable (docs/decisions/0108-time-ordered-ids.md).
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

/** The same 32 characters in byte order, so the time part sorts as the number it encodes. */
const sortedAlphabet = '234567abcdefghijklmnopqrstuvwxyz';

/** `ms` as 10 characters of sortedAlphabet (50 bits: any time before the year 10889). */
export function timePart(ms: number): string {
  let out = '';
  let rest = Math.floor(ms);
  for (let i = 0; i < 10; i++) {
    out = sortedAlphabet[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

export function newId(prefix: string): string {
  return `${prefix}_${timePart(Date.now())}${randomToken(10)}`;
}
