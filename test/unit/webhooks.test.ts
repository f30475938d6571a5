import { describe, expect, it } from 'vitest';
import {
  DISABLE_AFTER_MS,
  INTERNAL_NAME_SUFFIXES,
  MAX_ATTEMPTS,
  RETRY_DELAYS_SECONDS,
  failedLongEnough,
  isDelivered,
  normalizedTargetUrl,
  retryDelaySeconds,
  targetProblem,
} from '../../src/domain/webhooks';

describe('webhook retry schedule', () => {
  it('waits longer after each failure, over more than 24 hours, then gives up', () => {
    const delays = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, index) => retryDelaySeconds(index + 1)!);
    expect(delays).toEqual([...RETRY_DELAYS_SECONDS]);
    for (let index = 1; index < delays.length; index += 1) expect(delays[index]).toBeGreaterThanOrEqual(delays[index - 1]!);
    expect(delays.reduce((sum, seconds) => sum + seconds, 0)).toBeGreaterThan(24 * 3600);
    expect(retryDelaySeconds(MAX_ATTEMPTS)).toBeNull();
    expect(retryDelaySeconds(0)).toBeNull();
  });

  it('disables after three days of failures, not a moment before', () => {
    const now = new Date('2026-11-24T12:00:00.000Z');
    expect(failedLongEnough(null, now)).toBe(false);
    expect(failedLongEnough(new Date(now.getTime() - DISABLE_AFTER_MS + 1).toISOString(), now)).toBe(false);
    expect(failedLongEnough(new Date(now.getTime() - DISABLE_AFTER_MS).toISOString(), now)).toBe(true);
  });

  it('counts only a 2xx as delivered', () => {
    expect([200, 201, 204, 299].map(isDelivered)).toEqual([true, true, true, true]);
    expect([199, 301, 302, 400, 410, 500].map(isDelivered)).toEqual([false, false, false, false, false, false]);
  });
});

describe('webhook targets', () => {
  it.each([
    'https://hooks.example.com/loyalty',
    'https://api.partner.io:8443/webhooks?x=1',
    'https://8.8.8.8/hook',
    'https://172.32.0.1/hook',
    'https://[2606:4700::1111]/hook',
  ])('accepts the public https target %s', (url) => {
    expect(targetProblem(url, false)).toBeNull();
  });

  it.each([
    ['http://hooks.example.com/x', /https/],
    ['ftp://hooks.example.com/x', /https/],
    ['not a url', /absolute URL/],
    ['https://127.0.0.1/x', /loopback/],
    ['https://127.1/x', /loopback/], // shorthand, normalised by URL to 127.0.0.1
    ['https://0x7f000001/x', /loopback/], // hex, likewise
    ['https://0.0.0.0/x', /loopback/],
    ['https://10.0.0.8/x', /private/],
    ['https://172.16.4.2/x', /private/],
    ['https://192.168.0.1/x', /private/],
    ['https://100.64.0.1/x', /private/],
    ['https://169.254.169.254/latest/meta-data', /link-local/],
    ['https://224.0.0.1/x', /private/],
    ['https://[::1]/x', /loopback/],
    ['https://[fd00::1]/x', /private/],
    ['https://[fe80::1]/x', /link-local/],
    ['https://[::ffff:10.0.0.1]/x', /private/],
    ['https://localhost/x', /loopback/],
    ['https://api.localhost/x', /loopback/],
    ['https://printer.local/x', /private/],
    ['https://metadata.google.internal/x', /private/],
    ['https://intranet/x', /private/],
  ])('refuses %s', (url, message) => {
    expect(targetProblem(url, false)).toMatch(message);
  });

  it('allows http and private hosts only when private targets are allowed (local development and tests)', () => {
    expect(targetProblem('http://127.0.0.1:8790/hook', true)).toBeNull();
    expect(targetProblem('ftp://127.0.0.1/hook', true)).toMatch(/http/);
  });
});

describe('webhook targets: the security review of issue 20', () => {
  it.each([
    'https://[::7f00:1]/x', // IPv4-compatible ::127.0.0.1
    'https://[::ffff:0:7f00:1]/x', // IPv4-translated (RFC 6145)
    'https://[64:ff9b::7f00:1]/x', // NAT64 of 127.0.0.1
    'https://[2002:7f00:1::]/x', // 6to4 of 127.0.0.1
    'https://[fec0::1]/x', // site-local (deprecated)
    'https://[100::1]/x', // discard-only
    'https://localhost../x',
    'https://x.internal.../x',
    'https://192.0.0.1/x',
    'https://192.0.2.1/x',
    'https://198.51.100.1/x',
    'https://203.0.113.1/x',
    'https://192.88.99.1/x',
    'https://hooks.corp/x',
    'https://hooks.lan/x',
    'https://wiki.intranet/x',
    'https://api.default.svc/x',
  ])('refuses %s', (url) => {
    expect(targetProblem(url, false)).toMatch(/^Must not target a loopback, private or link-local address/);
  });

  // One address at each end of every block of the IANA special-purpose address registries
  // (iana.org/assignments/iana-ipv4-special-registry, iana-ipv6-special-registry), and the blocks
  // outside global unicast of the address space registries.
  it.each([
    ['0.0.0.0/8 this network', '0.0.0.0', '0.255.255.255'],
    ['10.0.0.0/8 private', '10.0.0.0', '10.255.255.255'],
    ['100.64.0.0/10 shared (CGNAT)', '100.64.0.0', '100.127.255.255'],
    ['127.0.0.0/8 loopback', '127.0.0.0', '127.255.255.255'],
    ['169.254.0.0/16 link-local', '169.254.0.0', '169.254.255.255'],
    ['172.16.0.0/12 private', '172.16.0.0', '172.31.255.255'],
    ['192.0.0.0/24 IETF protocol assignments', '192.0.0.0', '192.0.0.255'],
    ['192.0.2.0/24 TEST-NET-1', '192.0.2.0', '192.0.2.255'],
    ['192.31.196.0/24 AS112', '192.31.196.0', '192.31.196.255'],
    ['192.52.193.0/24 AMT', '192.52.193.0', '192.52.193.255'],
    ['192.88.99.0/24 6to4 relay anycast', '192.88.99.0', '192.88.99.255'],
    ['192.168.0.0/16 private', '192.168.0.0', '192.168.255.255'],
    ['192.175.48.0/24 AS112 direct delegation', '192.175.48.0', '192.175.48.255'],
    ['198.18.0.0/15 benchmarking', '198.18.0.0', '198.19.255.255'],
    ['198.51.100.0/24 TEST-NET-2', '198.51.100.0', '198.51.100.255'],
    ['203.0.113.0/24 TEST-NET-3', '203.0.113.0', '203.0.113.255'],
    ['224.0.0.0/4 multicast', '224.0.0.0', '239.255.255.255'],
    ['240.0.0.0/4 reserved, 255.255.255.255 broadcast', '240.0.0.0', '255.255.255.255'],
    ['::/128 unspecified, ::1/128 loopback', '[::]', '[::1]'],
    ['::/96 IPv4-compatible (deprecated)', '[::a00:1]', '[::808:808]'],
    ['::ffff:0:0/96 IPv4-mapped, in both spellings', '[::ffff:8.8.8.8]', '[::ffff:7f00:1]'],
    ['::ffff:0:0:0/96 IPv4-translated', '[::ffff:0:808:808]', '[::ffff:0:a00:1]'],
    ['64:ff9b::/96 NAT64', '[64:ff9b::808:808]', '[64:ff9b::a00:1]'],
    ['64:ff9b:1::/48 local-use NAT64', '[64:ff9b:1::808:808]', '[64:ff9b:1:ffff:ffff:ffff:ffff:ffff]'],
    ['100::/64 discard-only', '[100::]', '[100::ffff:ffff:ffff:ffff]'],
    ['2001::/23 IETF protocol assignments', '[2001:1::1]', '[2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff]'],
    ['2001::/32 Teredo', '[2001::]', '[2001:0:4136:e378:8000:63bf:3fff:fdd2]'],
    ['2001:2::/48 benchmarking', '[2001:2::]', '[2001:2:0:ffff:ffff:ffff:ffff:ffff]'],
    ['2001:10::/28 ORCHID (deprecated)', '[2001:10::1]', '[2001:1f:ffff:ffff:ffff:ffff:ffff:ffff]'],
    ['2001:20::/28 ORCHIDv2', '[2001:20::1]', '[2001:2f:ffff:ffff:ffff:ffff:ffff:ffff]'],
    ['2001:db8::/32 documentation', '[2001:db8::]', '[2001:db8:ffff:ffff:ffff:ffff:ffff:ffff]'],
    ['2002::/16 6to4, public IPv4 inside too', '[2002:808:808::1]', '[2002:a00:1::]'],
    ['2620:4f:8000::/48 AS112', '[2620:4f:8000::]', '[2620:4f:8000:ffff:ffff:ffff:ffff:ffff]'],
    ['3fff::/20 documentation', '[3fff::]', '[3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff]'],
    ['5f00::/16 segment routing', '[5f00::]', '[5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff]'],
    ['fc00::/7 unique local', '[fc00::]', '[fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]'],
    ['fe80::/10 link-local', '[fe80::]', '[febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff]'],
    ['fec0::/10 site-local (deprecated)', '[fec0::]', '[feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]'],
    ['ff00::/8 multicast', '[ff02::1]', '[ff0e::1]'],
    ['outside 2000::/3 (unassigned)', '[4000::1]', '[e000::1]'],
  ])('refuses %s: %s and %s', (_block, first, last) => {
    expect(targetProblem(`https://${first}/hook`, false)).toMatch(/not globally reachable/);
    expect(targetProblem(`https://${last}/hook`, false)).toMatch(/not globally reachable/);
  });

  it.each([
    ['https://2130706433/x', 'decimal'],
    ['https://0x7f000001/x', 'hex'],
    ['https://0x7f.0x0.0x0.0x1/x', 'hex per part'],
    ['https://0x7f.1/x', 'hex, short'],
    ['https://0177.0.0.1/x', 'octal'],
    ['https://017700000001/x', 'octal, whole'],
    ['https://127.1/x', 'short'],
    ['https://127.0.1/x', 'short, three parts'],
    ['https://127.0.0.1./x', 'trailing dot'],
    ['https://127.0.0.1../x', 'trailing dots'],
    ['https://3232235777/x', 'decimal 192.168.1.1'],
    ['https://0xa9fea9fe/x', 'hex 169.254.169.254'],
    ['https://[0:0:0:0:0:ffff:127.0.0.1]/x', 'IPv4-mapped, written out'],
    ['https://[::ffff:127.0.0.1]/x', 'IPv4-mapped, dotted'],
  ])('refuses the loopback or private address spelled %s (%s): URL parsing normalises it', (url) => {
    expect(targetProblem(url, false)).toMatch(/not globally reachable/);
  });

  it.each([...INTERNAL_NAME_SUFFIXES, 'cluster.local', 'svc.cluster.local', 'home.arpa', '1.0.0.127.in-addr.arpa'])('refuses *.%s, with and without trailing dots', (suffix) => {
    for (const host of [suffix, `hooks.${suffix}`, `hooks.${suffix}.`, `hooks.${suffix}...`]) {
      expect(targetProblem(`https://${host}/x`, false), host).toMatch(/^Must not target a loopback, private or link-local address/);
    }
  });

  it.each(['https://hooks/x', 'https://hooks./x', 'https://hooks.../x', 'https://.hooks/x', 'https://a..b/x'])('refuses the single-label or malformed name %s', (url) => {
    expect(targetProblem(url, false)).toMatch(/two non-empty labels/);
  });

  it.each([
    'https://8.8.8.8/hook',
    'https://1.1.1.1/hook',
    'https://134744072/hook', // 8.8.8.8 in decimal
    'https://[2606:4700:4700::1111]/hook',
    'https://[2001:4860:4860::8888]/hook',
    'https://hooks.partner.io/loyalty',
    'https://hooks.partner.io./loyalty',
    'https://local.partner.io/hook', // an internal word that is not the suffix
    'https://corp.example.com/hook',
    'https://hooks.example.com/hook', // example.com is a public, registered name
  ])('accepts the public target %s', (url) => {
    expect(targetProblem(url, false)).toBeNull();
  });
});

describe('the same target URL', () => {
  it('compares URLs as URL parsing serialises them, without the fragment', () => {
    expect(normalizedTargetUrl('HTTPS://Hooks.Partner.IO:443/a?b=1#frag')).toBe('https://hooks.partner.io/a?b=1');
    expect(normalizedTargetUrl('https://hooks.partner.io')).toBe('https://hooks.partner.io/');
    expect(normalizedTargetUrl('https://[2606:4700:4700:0:0:0:0:1111]/x')).toBe('https://[2606:4700:4700::1111]/x');
    expect(normalizedTargetUrl('https://hooks.partner.io/a?b=2')).not.toBe(normalizedTargetUrl('https://hooks.partner.io/a?b=1'));
    expect(normalizedTargetUrl('https://hooks.partner.io/A')).not.toBe(normalizedTargetUrl('https://hooks.partner.io/a'));
    expect(normalizedTargetUrl('https://hooks.partner.io:8443/a')).not.toBe(normalizedTargetUrl('https://hooks.partner.io/a'));
  });
});
