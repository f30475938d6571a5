import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { log } from '../../src/lib/log';
import { logLineProblems, neverLogged } from '../support/log-capture';

/** The rule every Worker log line is held to (test/support/log-capture.ts checks them all during the suite). */
describe('the logging rule', () => {
  it('passes a line of src/lib/log.ts: one JSON object, level, message, snake_case fields with ids', () => {
    const written: unknown[][] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => void written.push(args);
    try {
      log('warn', 'webhook endpoint disabled: every attempt failed for too long', { request_id: 'req_1', tenant_id: 'ten_1', endpoint_id: 'whe_1', status_code: 500 });
    } finally {
      console.warn = original;
    }
    expect(written).toEqual([[JSON.stringify({ level: 'warn', message: 'webhook endpoint disabled: every attempt failed for too long', request_id: 'req_1', tenant_id: 'ten_1', endpoint_id: 'whe_1', status_code: 500 })]]);
    expect(logLineProblems(written[0]!)).toEqual([]);
  });

  it.each([
    ['not JSON', 'something broke', /not one JSON object/],
    ['no level', JSON.stringify({ message: 'm' }), /no level/],
    ['no message', JSON.stringify({ level: 'info' }), /no message/],
    ['a camelCase field', JSON.stringify({ level: 'info', message: 'm', requestId: 'req_1' }), /requestId is not snake_case/],
    ['an API key secret', JSON.stringify({ level: 'info', message: 'm', reason: 'sk_0123456789abcdef' }), /an API key secret/],
    ['a webhook secret', JSON.stringify({ level: 'info', message: 'm', reason: 'whsec_c2VjcmV0LXZhbHVl' }), /a webhook secret/],
    ['a JWT', JSON.stringify({ level: 'info', message: 'm', reason: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.sig' }), /a bearer token or JWT/],
    ['an email', JSON.stringify({ level: 'info', message: 'm', reason: 'no customer jane.doe@example.com' }), /an email address/],
    ['the mnemonic', JSON.stringify({ level: 'error', message: 'm', reason: env.WALLET_MNEMONIC }), /the value of WALLET_MNEMONIC/],
  ])('flags %s', (_what, line, problem) => {
    expect(logLineProblems([line]).join('\n')).toMatch(problem);
  });

  it('flags a request signature the suite signed, and leaves other hex (a transaction hash, ABI data) alone', () => {
    const signature = 'c'.repeat(63) + 'd';
    neverLogged(signature);
    expect(logLineProblems([JSON.stringify({ level: 'warn', message: 'm', reason: `signature ${signature}` })]).join('\n')).toMatch(/a request signature the test signed/);
    expect(logLineProblems([JSON.stringify({ level: 'info', message: 'stuck transaction replaced', tx_hash: `0x${'b'.repeat(64)}`, reason: `custom error 0x118cdaa7: ${'0'.repeat(24)}${'e'.repeat(40)}` })])).toEqual([]);
  });

  it('leaves a test\'s labelled print alone', () => {
    expect(logLineProblems(['measured:', { rowsRead: 1 }])).toEqual([]);
  });
});
