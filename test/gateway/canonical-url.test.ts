import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { hmacHex, signingString, signRequest } from '../../src/auth/signature';
import { unixSeconds } from '../../src/lib/time';
import { pageSchema } from '../../src/lib/paging';
import { internalTransactionSchema } from '../../src/schemas/internal-transaction';
import { tierRuleSchema } from '../../src/schemas/tier';
import { createTierViaApi } from '../support/customers';
import { BASE, expectError, expectOk, type JsonResponse } from '../support/http';
import { createCustomer } from '../support/ledger';
import { rewrittenUrls, TIERS } from '../support/rewritten-urls';
import { createTenant, createTestApiKey, type TestApiKey } from '../support/world';

/** Sends to `target` exactly as given (a path is sent to BASE): the test's fetch serializes it, as any HTTP client or the runtime would. */
async function sendTo(target: string, headers: Record<string, string>, body?: string): Promise<JsonResponse> {
  const url = target.startsWith('/') ? `${BASE}${target}` : target;
  const response = await SELF.fetch(url, { method: body === undefined ? 'GET' : 'POST', headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
}

/** The gateway headers for a signature over `signedUrl` exactly as given, bypassing our signer's canonicalization. */
async function signedOver(key: TestApiKey, signedUrl: string): Promise<Record<string, string>> {
  const timestamp = String(unixSeconds());
  const signature = await hmacHex(key.secret, signingString({ timestamp, method: 'GET', url: signedUrl, body: '' }));
  return { 'X-Tenant-Key': key.keyId, 'X-Tenant-Timestamp': timestamp, 'X-Tenant-Signature': signature };
}

/** Authentication passed: the route answered (tiers: 200; an unknown transaction id: a 4xx of the route, never 401 or 5xx). */
function expectAuthenticated(res: JsonResponse, canonical: string) {
  if (canonical.split('?')[0] === TIERS) {
    expectOk(res, 200, pageSchema(tierRuleSchema));
    return;
  }
  expect(res.status, res.text).not.toBe(401);
  expect(res.status, res.text).toBeLessThan(500);
}

async function setup() {
  const tenant = await createTenant();
  return { tenant, key: await createTestApiKey(tenant.id) };
}

describe('the signed url is the canonical (WHATWG-serialized) url', () => {
  it.each(rewrittenUrls)(
    '%s: accepted signed in canonical form or by our signer from the written form; refused signed as written or over another url',
    async (_case, written, canonical) => {
      const { key } = await setup();
      expectAuthenticated(await sendTo(written, await signedOver(key, canonical)), canonical);
      expectAuthenticated(await sendTo(written, await signRequest({ keyId: key.keyId, secret: key.secret, method: 'GET', url: written })), canonical);
      if (written.startsWith('/') && written !== canonical) {
        expectError(await sendTo(written, await signedOver(key, written)), 401, 'AUTH_INVALID_CREDENTIALS', /^Signed url differs|^Signature mismatch$/);
      }
      expectError(await sendTo(written, await signedOver(key, `${TIERS}?tier_name=other`)), 401, 'AUTH_INVALID_CREDENTIALS', 'Signature mismatch');
    },
  );

  it("finds the tier named a'b (the reported case): signed as canonical, answered with the tier", async () => {
    const { tenant, key } = await setup();
    await createTierViaApi(tenant.owner, tenant.id, "a'b", 10);
    const written = `${TIERS}?tier_name=a'b`;
    const res = await sendTo(written, await signRequest({ keyId: key.keyId, secret: key.secret, method: 'GET', url: written }));
    expect(expectOk(res, 200, pageSchema(tierRuleSchema)).items.map((tier) => tier.tier_name)).toEqual(["a'b"]);
    // Signed exactly as written, the server names the fix.
    expectError(
      await sendTo(written, await signedOver(key, written)),
      401,
      'AUTH_INVALID_CREDENTIALS',
      "Signed url differs from the sent url (sign the canonical url, as the server parses it: e.g. a space is sent as %20 and ' in the query as %27)",
    );
  });

  it('accepts a write sent to a url with dot segments, signed by our signer', async () => {
    const { tenant, key } = await setup();
    const userId = await createCustomer(tenant.id);
    const written = '/api/v1/gateway/customers/../xp';
    const body = JSON.stringify({ user_id: userId, type: 'xp_earn', amount: '5' });
    const signed = await signRequest({ keyId: key.keyId, secret: key.secret, method: 'POST', url: written, body });
    const res = await sendTo(written, { ...signed, 'content-type': 'application/json', 'X-Idempotency-Key': 'dots-1' }, body);
    expect(expectOk(res, 201, internalTransactionSchema).amount).toBe('5');
  });
});
