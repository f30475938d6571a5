/**
 * Webhook rules: when a failed delivery is tried again, when an endpoint is given up on
 * (docs/decisions/0070-webhook-retries-disable-replay.md), and which targets may be called at all
 * (docs/decisions/0071-webhook-target-safety.md). Pure: no I/O, no clock.
 */
import ipaddr from 'ipaddr.js';

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

/**
 * Name suffixes that only resolve inside a network (or nowhere), each refused with every name under
 * it. Where each comes from:
 * - RFC 6761 special-use names: `localhost` (loopback), `test`, `invalid`, `example` (the TLD only:
 *   example.com is a registered public name);
 * - RFC 6762 (multicast DNS): `local`; its appendix G lists names commonly used on private networks:
 *   `intranet`, `internal`, `private`, `corp`, `home`, `lan`;
 * - `arpa` (RFC 3172, infrastructure only), refused whole: it holds RFC 8375's `home.arpa` and the
 *   reverse zones in-addr.arpa and ip6.arpa;
 * - RFC 7686: `onion`; RFC 9476: `alt`;
 * - ICANN reserved `internal` for private use (2024) and never delegates `corp`, `home`, `mail`
 *   (name collisions with private networks);
 * - conventions of private networks: `localdomain` (/etc/hosts), `svc` (Kubernetes service names;
 *   `*.svc.cluster.local` is under `local` already).
 */
export const INTERNAL_NAME_SUFFIXES = [
  'localhost',
  'test',
  'invalid',
  'example',
  'local',
  'intranet',
  'internal',
  'private',
  'corp',
  'home',
  'lan',
  'arpa',
  'onion',
  'alt',
  'mail',
  'localdomain',
  'svc',
] as const;

const PRIVATE_TARGET = 'Must not target a loopback, private or link-local address';

/** IPv6 global unicast (RFC 4291; the IANA IPv6 address space registry): everything else is special. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Why an IP literal may not be a target, or null. Accepted: only what ipaddr.js names `unicast`,
 * i.e. outside every block of the IANA IPv4 and IPv6 special-purpose address registries (and, for
 * IPv6, inside 2000::/3). Every form embedding an IPv4 address is refused whole, never judged by
 * its IPv4 part (docs/decisions/0071-webhook-target-safety.md): IPv4-mapped and -translated (::ffff:0:0/96,
 * ::ffff:0:0:0/96), IPv4-compatible (::/96, outside 2000::/3), NAT64 (64:ff9b::/96, 64:ff9b:1::/48),
 * 6to4 (2002::/16) and Teredo (2001::/32).
 */
function addressProblem(host: string): string | null {
  const address = host.startsWith('[') ? ipaddr.IPv6.parse(host.slice(1, -1)) : ipaddr.IPv4.parse(host);
  const range = address.range();
  if (address.kind() === 'ipv6' && range === 'unicast' && !address.match(GLOBAL_UNICAST_V6)) {
    return `${PRIVATE_TARGET}, or any other address that is not globally reachable (outside 2000::/3)`;
  }
  return range === 'unicast' ? null : `${PRIVATE_TARGET}, or any other address that is not globally reachable (${range})`;
}

/** Why a host name may not be a target, or null: two non-empty labels or more, and no internal suffix. */
function nameProblem(name: string): string | null {
  const labels = name.split('.');
  if (labels.length < 2 || labels.includes('')) return `${PRIVATE_TARGET}: a public host name has two non-empty labels or more`;
  const internal = INTERNAL_NAME_SUFFIXES.find((suffix) => name === suffix || name.endsWith(`.${suffix}`));
  return internal ? `${PRIVATE_TARGET}: *.${internal} is a name of a local or internal network` : null;
}

/**
 * Why `url` may not receive webhooks, or null when it may: https only, and no host that is not
 * public (an IP literal outside global unicast, or a name that only resolves inside a network)
 * unless private targets are allowed (local development and tests only). WHATWG URL parsing has
 * already turned every IPv4 spelling (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`) into a dotted
 * quad and IPv6 into its canonical form, lowercased names and mapped full-width letters. Names are
 * not resolved here: a public name that resolves to a private address is left to Cloudflare's
 * egress, which sends a Worker's requests only to public Internet services
 * (docs/decisions/0071-webhook-target-safety.md).
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
  const host = parsed.hostname.replace(/\.+$/, '');
  return host.startsWith('[') || ipaddr.IPv4.isValidFourPartDecimal(host) ? addressProblem(host) : nameProblem(host);
}

/**
 * The form in which a target URL is stored and compared ("the same URL" of two endpoints): as
 * `new URL()` serialises it (scheme and host lowercased, default port dropped, IP literals
 * canonical), without the fragment, which is never sent. Path and query are kept as they are.
 */
export function normalizedTargetUrl(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}
