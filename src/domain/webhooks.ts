/**
 * Webhook rules (docs/DECISIONS.md, "Webhooks"): when a failed delivery is tried again, when an
 * endpoint is given up on, and which targets may be called at all. Pure: no I/O, no clock.
 */

/**
 * Seconds to wait after the Nth failed attempt (index 0 = after the first). Exponential-ish, as in
 * the Standard Webhooks reference schedule: 8 attempts over 27 h 35 min, so a receiver down for a
 * whole day still gets every event.
 */
export const RETRY_DELAYS_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;

/** Total tries of one delivery before it is `failed` for good (a replay starts it again). */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** An endpoint whose deliveries have all failed for this long is disabled. */
export const DISABLE_AFTER_MS = 3 * 24 * 3600 * 1000;

/** A receiver must answer within this time; a slower answer is a failed attempt. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** After a rotation the previous secret keeps signing for this long, so receivers can switch over. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 3600 * 1000;

/** A queued delivery not attempted after this long is handed to the queue again (a lost message). */
export const REQUEUE_AFTER_MS = 10 * 60 * 1000;

/** How long an attempt holds its delivery: a duplicate message meanwhile finds it not due. */
export const ATTEMPT_LEASE_MS = 60 * 1000;

export const MAX_ENDPOINTS_PER_TENANT = 20;

/** Seconds until the next try after `attempts` failed tries, or null when the delivery is given up. */
export function retryDelaySeconds(attempts: number): number | null {
  return attempts >= 1 && attempts < MAX_ATTEMPTS ? RETRY_DELAYS_SECONDS[attempts - 1]! : null;
}

/** Whether an endpoint failing since `failingSince` (ISO) is to be disabled at `now`. */
export function failedLongEnough(failingSince: string | null, now: Date): boolean {
  return failingSince !== null && now.getTime() - Date.parse(failingSince) >= DISABLE_AFTER_MS;
}

/** A 2xx is a success; anything else (3xx included: redirects are not followed) is retried. */
export function isDelivered(status: number): boolean {
  return status >= 200 && status < 300;
}

function ipv4Octets(host: string): number[] | undefined {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return undefined;
  const octets = parts.map(Number);
  return octets.every((octet) => octet <= 255) ? octets : undefined;
}

function isPrivateIpv4([a, b]: number[]): boolean {
  return (
    a === 0 || // "this" network
    a === 10 ||
    a === 127 || // loopback
    (a === 100 && b! >= 64 && b! <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a! >= 224 // multicast and reserved
  );
}

function isPrivateIpv6(host: string): boolean {
  const address = host.replace(/^\[|\]$/g, '').toLowerCase();
  const mappedV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
  if (mappedV4) return isPrivateIpv4(ipv4Octets(mappedV4) ?? [0]);
  if (/^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/.test(address)) return true; // IPv4-mapped in hex form
  return (
    address === '::' ||
    address === '::1' ||
    /^f[cd]/.test(address) || // unique local fc00::/7
    /^fe[89ab]/.test(address) || // link-local fe80::/10
    /^ff/.test(address) // multicast
  );
}

const INTERNAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/;

/**
 * Why `url` may not receive webhooks, or null when it may: https only, and no loopback, private or
 * link-local host (by IP literal or by a name that only resolves inside a network) unless private
 * targets are allowed (local development and tests only). Names are not resolved here: Workers
 * cannot reach private addresses through a public name's DNS record.
 */
export function targetProblem(url: string, allowPrivateTargets: boolean): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Must be an absolute URL';
  }
  if (allowPrivateTargets) return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? null : 'Must be an http(s) URL';
  if (parsed.protocol !== 'https:') return 'Must be an https URL';
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
  const octets = ipv4Octets(host);
  const isPrivate = octets ? isPrivateIpv4(octets) : host.includes(':') ? isPrivateIpv6(host) : INTERNAL_NAMES.test(host) || !host.includes('.');
  return isPrivate ? 'Must not target a loopback, private or link-local address' : null;
}
