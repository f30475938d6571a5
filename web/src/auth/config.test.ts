import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelope, FakeNetwork } from '../test/fake-api';
import { loadCmsConfig } from './config';

describe('cms-config', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads the provider, or null when sign-in is not configured', async () => {
    const network = new FakeNetwork().on('getCmsConfig', { data: { oidc: { issuer: 'https://id.test', client_id: 'cms', scope: 'openid profile email' } } });
    vi.stubGlobal('fetch', network.fetch);
    expect(await loadCmsConfig('http://cms.test/api/v1')).toEqual({ oidc: { issuer: 'https://id.test', client_id: 'cms', scope: 'openid profile email' } });
    network.on('getCmsConfig', { data: { oidc: null } });
    expect(await loadCmsConfig('http://cms.test/api/v1')).toEqual({ oidc: null });
  });

  it('a misconfigured Worker\'s envelope message is what the CMS says', async () => {
    const network = new FakeNetwork().on('getCmsConfig', { status: 503, error: envelope('SERVICE_MISCONFIGURED', 'CMS_OIDC_CLIENT_ID is not set while CMS_OIDC_ISSUER is') });
    vi.stubGlobal('fetch', network.fetch);
    await expect(loadCmsConfig('http://cms.test/api/v1')).rejects.toThrow('The CMS configuration could not be read: CMS_OIDC_CLIENT_ID is not set while CMS_OIDC_ISSUER is');
  });
});
