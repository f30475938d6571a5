import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTenant, createTestApiKey } from '../support/world';
import { isCheckGuard, measure, uncachedKey } from './recorded';

const TX = '/api/v1/gateway/internal-transactions/itx_missing';

/** WebCrypto calls the gateway makes on the server side (the test's own signing imports `sign` keys, not counted). */
function serverCrypto() {
  const decrypt = vi.spyOn(crypto.subtle, 'decrypt');
  const importKey = vi.spyOn(crypto.subtle, 'importKey');
  const verify = vi.spyOn(crypto.subtle, 'verify');
  return {
    decrypts: () => decrypt.mock.calls.length,
    verifierImports: () => importKey.mock.calls.filter((args) => args[4].includes('verify')).length,
    verifications: () => verify.mock.calls.length,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('gateway: the HMAC key of an API key is kept per isolate, non-extractable', () => {
  it('the first request of a key decrypts its secret and imports its HMAC key once; later ones neither', async () => {
    const tenant = await createTenant();
    const key = await uncachedKey(tenant.id);
    const first = serverCrypto();
    expect((await measure(key, 'GET', TX)).status).toBe(404);
    expect(first.decrypts()).toBe(1);
    expect(first.verifierImports()).toBe(1);
    vi.restoreAllMocks();

    const warm = serverCrypto();
    const again = await measure(key, 'GET', TX);
    expect(again.status).toBe(404);
    expect(warm.decrypts()).toBe(0);
    expect(warm.verifierImports()).toBe(0);
    expect(warm.verifications()).toBe(1);
    // The status is confirmed in D1 all the same.
    expect(isCheckGuard(again.path.d1[0]?.[0] ?? '')).toBe(true);
  });

  it('keeps the key unreadable: imported non-extractable, so no code can export it', async () => {
    const tenant = await createTenant();
    const key = await createTestApiKey(tenant.id);
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    await measure(key, 'GET', TX);
    const imports = importKey.mock.calls.map((args, index) => ({ args, result: importKey.mock.results[index] })).filter(({ args }) => args[4].includes('verify'));
    expect(imports).toHaveLength(1);
    const verifier = (await imports[0]?.result?.value) as CryptoKey;
    expect(imports[0]?.args[3]).toBe(false);
    expect(verifier.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', verifier)).rejects.toThrow();
  });
});
