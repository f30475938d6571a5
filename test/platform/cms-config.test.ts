/**
 * GET /system/cms-config: what the CMS needs before anyone signs in (its OpenID provider), from
 * CMS_OIDC_ISSUER and CMS_OIDC_CLIENT_ID, both or neither (src/config.ts).
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Bindings } from '../../src/env';
import { cmsConfigSchema } from '../../src/schemas/cms-config';
import { BASE, callWorker, expectError, expectOk } from '../support/http';

const PATH = '/api/v1/system/cms-config';

/**
 * Both vars unset unless given: the pool also reads a developer's .dev.vars, where `npm run dev`
 * writes the dev sign-in's.
 */
function withVars(vars: Partial<Record<'CMS_OIDC_ISSUER' | 'CMS_OIDC_CLIENT_ID', string>>) {
  return callWorker(new Request(`${BASE}${PATH}`), { ...env, CMS_OIDC_ISSUER: undefined, CMS_OIDC_CLIENT_ID: undefined, ...vars } as Bindings);
}

describe('GET /system/cms-config', () => {
  it('answers without a token: oidc null when neither variable is set, never cached', async () => {
    const res = await withVars({});
    expect(expectOk(res, 200, cmsConfigSchema)).toEqual({ oidc: null });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('names the provider, the client id and the scope the CMS asks for', async () => {
    const res = await withVars({ CMS_OIDC_ISSUER: ' https://id.example.com/realms/loyalty ', CMS_OIDC_CLIENT_ID: 'loyalty-cms' });
    expect(expectOk(res, 200, cmsConfigSchema)).toEqual({
      oidc: { issuer: 'https://id.example.com/realms/loyalty', client_id: 'loyalty-cms', scope: 'openid profile email' },
    });
  });

  it('blank values count as unset: oidc null', async () => {
    expect(expectOk(await withVars({ CMS_OIDC_ISSUER: '', CMS_OIDC_CLIENT_ID: '  ' }), 200, cmsConfigSchema)).toEqual({ oidc: null });
  });

  it.each([
    [{ CMS_OIDC_ISSUER: 'https://id.example.com' }, /^CMS_OIDC_CLIENT_ID is not set while CMS_OIDC_ISSUER is: the CMS sign-in needs both/],
    [{ CMS_OIDC_CLIENT_ID: 'loyalty-cms' }, /^CMS_OIDC_ISSUER is not set while CMS_OIDC_CLIENT_ID is: the CMS sign-in needs both/],
    [{ CMS_OIDC_ISSUER: 'id.example.com', CMS_OIDC_CLIENT_ID: 'loyalty-cms' }, /^CMS_OIDC_ISSUER is not an http\(s\) URL$/],
  ])('%j: 503 SERVICE_MISCONFIGURED naming the variable at fault', async (vars, message) => {
    const res = await withVars(vars);
    const body = expectError(res, 503, 'SERVICE_MISCONFIGURED', message);
    expect(body.errors).toEqual([{ path: '', message: body.message }]);
  });
});
