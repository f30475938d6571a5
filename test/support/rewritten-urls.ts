export const TIERS = '/api/v1/gateway/tiers';
export const ITX = '/api/v1/gateway/internal-transactions';

/**
 * URLs that the WHATWG parser (the runtime, `new URL`) rewrites, or deliberately leaves alone, with
 * their canonical signed url: shared by the canonicalizer's unit tests and the gateway's.
 */
export const rewrittenUrls: Array<[string, string, string]> = [
  ["' in the query", `${TIERS}?tier_name=a'b`, `${TIERS}?tier_name=a%27b`],
  ["' in the path (kept)", `${ITX}/itx_a'b`, `${ITX}/itx_a'b`],
  ['.. segment', '/api/v1/gateway/customers/../tiers', TIERS],
  ['. segment', '/api/v1/gateway/./tiers', TIERS],
  ['percent-encoded .. segment', '/api/v1/gateway/customers/%2e%2E/tiers', TIERS],
  ['space in the query', `${TIERS}?tier_name=Gold Plus`, `${TIERS}?tier_name=Gold%20Plus`],
  ['space in the path', `${ITX}/itx a`, `${ITX}/itx%20a`],
  ['" in the path and the query', `${ITX}/itx"a?x="`, `${ITX}/itx%22a?x=%22`],
  ['< and > in the path and the query', `${ITX}/itx<a>?x=<b>`, `${ITX}/itx%3Ca%3E?x=%3Cb%3E`],
  ['backtick in the path (the query keeps it)', `${ITX}/itx\`a?x=\``, `${ITX}/itx%60a?x=\``],
  ['{ and } in the path (the query keeps them)', `${ITX}/itx{a}?x={b}`, `${ITX}/itx%7Ba%7D?x={b}`],
  ['^ in the path (the query keeps it)', `${ITX}/itx^a?x=^`, `${ITX}/itx%5Ea?x=^`],
  ['| (kept everywhere)', `${ITX}/itx|a?x=|`, `${ITX}/itx|a?x=|`],
  ['non-ASCII (UTF-8, uppercase hex)', `${ITX}/itx_é?tier_name=Grün €`, `${ITX}/itx_%C3%A9?tier_name=Gr%C3%BCn%20%E2%82%AC`],
  ['%7e (kept as written, not decoded to ~ nor uppercased)', `${ITX}/itx%7e?x=%7e`, `${ITX}/itx%7e?x=%7e`],
  ['backslash in the path (a slash)', '/api/v1/gateway\\tiers', TIERS],
  ['tab and newline (removed)', `${TIERS}?tier_name=Go\tl\nd`, `${TIERS}?tier_name=Gold`],
  ['fragment (never sent)', `${TIERS}?tier_name=a#top`, `${TIERS}?tier_name=a`],
  ['bare ? (kept)', `${TIERS}?`, `${TIERS}?`],
  ['uppercase host (not signed)', 'https://LOYALTY.Example/api/v1/gateway/tiers', TIERS],
  ['default port :443 (not signed)', 'https://loyalty.example:443/api/v1/gateway/tiers', TIERS],
  ['default port :80 (not signed)', 'http://loyalty.example:80/api/v1/gateway/tiers?x=1', `${TIERS}?x=1`],
];
