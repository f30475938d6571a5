import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret } from '../../src/auth/secret-box';
import { hmacHex, MALFORMED_SIGNATURE, reserializedBody, sha256Hex, signatureFailure, signingString, signRequest, type SigningParts } from '../../src/auth/signature';
import { testKeys } from '../support/keys';

/** Pure parts of gateway authentication and of the API key secret box (no HTTP, no D1). */

describe('hmacHex (HMAC-SHA256, lowercase hex)', () => {
  it('matches RFC 4231 test case 1 (key 20 x 0x0b, "Hi There")', async () => {
    expect(await hmacHex('\x0b'.repeat(20), 'Hi There')).toBe('b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7');
  });

  it('matches RFC 4231 test case 2 (key "Jefe")', async () => {
    expect(await hmacHex('Jefe', 'what do ya want for nothing?')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('is 64 lowercase hex characters and depends on key and message', async () => {
    const a = await hmacHex('sk_a', 'message');
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(await hmacHex('sk_b', 'message')).not.toBe(a);
    expect(await hmacHex('sk_a', 'message!')).not.toBe(a);
    expect(await hmacHex('sk_a', 'message')).toBe(a);
  });
});

describe('sha256Hex (the one SHA-256-to-hex of the Worker: idempotency fingerprints, token cache keys)', () => {
  it('matches the FIPS 180-2 vectors, over the UTF-8 bytes', async () => {
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex('é')).toBe('4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
  });
});

describe('signingString', () => {
  it('is timestamp + METHOD + url + body with nothing between, in that order', () => {
    expect(signingString({ timestamp: '1700000000', method: 'POST', url: '/api/v1/gateway/xp?a=1&b=2', body: '{"a":1}' })).toBe(
      '1700000000POST/api/v1/gateway/xp?a=1&b=2{"a":1}',
    );
    expect(signingString({ timestamp: '1', method: 'GET', url: '/api/v1/gateway/tiers', body: '' })).toBe('1GET/api/v1/gateway/tiers');
  });
});

describe('reserializedBody (spec rule 2)', () => {
  it('compacts JSON, keeps key order, and keeps a non-JSON body or an empty one as sent', () => {
    expect(reserializedBody('{ "b": 1,\n  "a": [1, 2] }')).toBe('{"b":1,"a":[1,2]}');
    expect(reserializedBody('')).toBe('');
    expect(reserializedBody('{"user_id":')).toBe('{"user_id":');
    expect(reserializedBody('"x"')).toBe('"x"');
  });
});

describe('signRequest', () => {
  it('uppercases the verb, signs "" for no body, and sends the timestamp it signed', async () => {
    const headers = await signRequest({ keyId: 'key_abc', secret: 'Jefe', method: 'get', url: '/api/v1/gateway/tiers?tier_name=Gold', timestamp: 1700000000 });
    expect(headers).toEqual({
      'X-Tenant-Key': 'key_abc',
      'X-Tenant-Timestamp': '1700000000',
      'X-Tenant-Signature': await hmacHex('Jefe', '1700000000GET/api/v1/gateway/tiers?tier_name=Gold'),
    });
  });

  it('signs the exact body string of a write', async () => {
    const body = '{"user_id":"cus_1","type":"xp_earn","amount":"5"}';
    const headers = await signRequest({ keyId: 'key_abc', secret: 'sk_1', method: 'POST', url: '/api/v1/gateway/xp', body, timestamp: 42 });
    expect(headers['X-Tenant-Signature']).toBe(await hmacHex('sk_1', `42POST/api/v1/gateway/xp${body}`));
  });
});

describe('signatureFailure', () => {
  const secret = 'sk_test_secret';
  const parts: SigningParts = { timestamp: '1700000000', method: 'POST', url: '/api/v1/gateway/xp?dry=1&a=2', body: '{"a":1}' };
  const sign = (signed: SigningParts) => hmacHex(secret, signingString(signed));

  it('accepts the signature of exactly these parts', async () => {
    expect(await signatureFailure(secret, parts, await sign(parts))).toBeUndefined();
  });

  it('refuses a signature that is not lowercase hex before computing anything', async () => {
    expect(await signatureFailure(secret, parts, (await sign(parts)).toUpperCase())).toBe(MALFORMED_SIGNATURE);
    expect(await signatureFailure(secret, parts, 'abc')).toBe(MALFORMED_SIGNATURE);
  });

  it.each<[string, (p: SigningParts) => SigningParts, string]>([
    ['an empty body', (p) => ({ ...p, body: '' }), 'Signed body differs from the sent body (the signature covers an empty body)'],
    ['the url without /api/v1', (p) => ({ ...p, url: p.url.slice('/api/v1'.length) }), 'Signed url differs from the sent url (sign the path from /api/v1 on)'],
    ['the url without its query', (p) => ({ ...p, url: '/api/v1/gateway/xp' }), 'Signed url differs from the sent url (the query string is part of the signed url)'],
    ['the url without prefix and query', () => ({ ...parts, url: '/gateway/xp' }), 'Signed url differs from the sent url (sign the path from /api/v1 on, query string included)'],
    ['a sorted query', (p) => ({ ...p, url: '/api/v1/gateway/xp?a=2&dry=1' }), 'Signed url differs from the sent url (query parameters are signed in the order sent)'],
    ['a lowercase verb', (p) => ({ ...p, method: 'post' }), 'Verb in the signing string is not uppercase'],
    ['another body', (p) => ({ ...p, body: '{"a":2}' }), 'Signature mismatch'],
    ['another timestamp', (p) => ({ ...p, timestamp: '1700000001' }), 'Signature mismatch'],
  ])('names the failed check when the client signed %s', async (_case, mistake, reason) => {
    expect(await signatureFailure(secret, parts, await sign(mistake(parts)))).toBe(reason);
  });

  it('names the raw formatted body when that was signed instead of the compact JSON', async () => {
    const raw = '{ "a": 1 }';
    expect(await signatureFailure(secret, parts, await sign({ ...parts, body: raw }), raw)).toMatch(/^Signed body differs from the sent body \(the server hashes the body re-serialized/);
  });

  it('answers "Signature mismatch" for the secret of another key', async () => {
    expect(await signatureFailure('sk_other', parts, await sign(parts))).toBe('Signature mismatch');
  });
});

describe('secret box (AES-256-GCM)', () => {
  const key = testKeys.encryptionKey;
  const otherKey = btoa(String.fromCharCode(...new Uint8Array(32).fill(7)));

  it('round-trips a secret, with a fresh IV each time (iv.ciphertext, both base64)', async () => {
    const secret = 'sk_abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrst';
    const a = await encryptSecret(key, secret);
    const b = await encryptSecret(key, secret);
    expect(a).toMatch(/^[A-Za-z0-9+/]{16}\.[A-Za-z0-9+/]+={0,2}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain(secret);
    expect(await decryptSecret(key, a)).toBe(secret);
    expect(await decryptSecret(key, b)).toBe(secret);
    expect(await decryptSecret(key, await encryptSecret(key, ''))).toBe('');
  });

  it('detects tampering with the ciphertext or the IV', async () => {
    const stored = await encryptSecret(key, 'sk_secret');
    const [iv, cipher] = stored.split('.') as [string, string];
    const flip = (text: string) => {
      const bytes = Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
      bytes[0] = bytes[0]! ^ 1;
      return btoa(String.fromCharCode(...bytes));
    };
    await expect(decryptSecret(key, `${iv}.${flip(cipher)}`)).rejects.toThrow();
    await expect(decryptSecret(key, `${flip(iv)}.${cipher}`)).rejects.toThrow();
  });

  it('refuses the wrong key, a malformed stored value and a key that is not 32 bytes', async () => {
    const stored = await encryptSecret(key, 'sk_secret');
    await expect(decryptSecret(otherKey, stored)).rejects.toThrow();
    await expect(decryptSecret(key, 'no-dot')).rejects.toThrow('Malformed encrypted secret');
    await expect(encryptSecret(btoa('too short'), 'x')).rejects.toThrow('API_KEY_ENCRYPTION_KEY must be 32 bytes, base64');
    await expect(decryptSecret(btoa('x'.repeat(33)), stored)).rejects.toThrow('must be 32 bytes');
  });
});
