import { describe, expect, it } from 'vitest';
import { DISABLE_AFTER_MS, MAX_ATTEMPTS, RETRY_DELAYS_SECONDS, failedLongEnough, isDelivered, retryDelaySeconds, targetProblem } from '../../src/domain/webhooks';

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
