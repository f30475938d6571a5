// Runs in workerd, not Node: the canonical form is the runtime's own WHATWG URL serialization (Node's leaves `^` in a path as is).
import { describe, expect, it } from 'vitest';
import { canonicalSignedUrl, hmacHex, signatureFailure, signingString, signRequest } from '../../src/auth/signature';
import { rewrittenUrls } from '../support/rewritten-urls';

const TIERS = '/api/v1/gateway/tiers';

describe('canonicalSignedUrl (WHATWG URL serialization of path and query)', () => {
  it.each(rewrittenUrls)('%s', (_case, written, canonical) => {
    expect(canonicalSignedUrl(written)).toBe(canonical);
  });

  it.each(rewrittenUrls)('%s: matches what the runtime makes of the request url, and is a fixed point', (_case, written, canonical) => {
    // The runtime's own serialization (the fragment is kept on the object but never sent).
    const [requestUrl = ''] = new Request(written.startsWith('/') ? `https://loyalty.test${written}` : written).url.split('#');
    expect(requestUrl.slice(requestUrl.indexOf('/', requestUrl.indexOf('//') + 2))).toBe(canonical);
    expect(canonicalSignedUrl(canonical)).toBe(canonical);
  });

  it('keeps a path that starts with // a path, as in a request line', () => {
    expect(canonicalSignedUrl('//api/v1/gateway/tiers')).toBe('//api/v1/gateway/tiers');
  });

  it('signRequest signs the canonical form of the url it is given', async () => {
    const written = `${TIERS}?tier_name=a'b`;
    const headers = await signRequest({ keyId: 'key_abc', secret: 'sk_1', method: 'GET', url: written, timestamp: 1700000000 });
    expect(headers['X-Tenant-Signature']).toBe(await hmacHex('sk_1', `1700000000GET${TIERS}?tier_name=a%27b`));
  });
});

describe('signatureFailure: a url signed before the parser rewrote it', () => {
  const secret = 'sk_test';
  const parts = { timestamp: '1700000000', method: 'GET', url: `${TIERS}?tier_name=a%27b%20c`, body: '' };

  it('names the canonical url when the client signed the characters the server sees percent-encoded', async () => {
    const signature = await hmacHex(secret, signingString({ ...parts, url: `${TIERS}?tier_name=a'b c` }));
    expect(await signatureFailure(secret, parts, signature)).toBe(
      "Signed url differs from the sent url (sign the canonical url, as the server parses it: e.g. a space is sent as %20 and ' in the query as %27)",
    );
  });

  it('answers a plain mismatch for a signature over another url', async () => {
    const signature = await hmacHex(secret, signingString({ ...parts, url: `${TIERS}?tier_name=other` }));
    expect(await signatureFailure(secret, parts, signature)).toBe('Signature mismatch');
  });

  it('does not choke on a url that is not valid percent-encoding', async () => {
    const signature = await hmacHex(secret, signingString({ ...parts, url: `${TIERS}?x=%E9` }));
    expect(await signatureFailure(secret, { ...parts, url: `${TIERS}?x=%E9` }, signature)).toBeUndefined();
    expect(await signatureFailure(secret, { ...parts, url: `${TIERS}?x=%E9` }, await hmacHex(secret, 'x'))).toBe('Signature mismatch');
  });
});
