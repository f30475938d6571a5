/**
 * The CMS's security headers (src/routes/cms, docs/decisions/0080-cms-headers-worker-first.md): the Worker runs
 * first for every request and puts them on every CMS page and file. The asset server is a fake
 * here (what it answers is wrangler's business, checked by the e2e suite against `wrangler dev`),
 * so these tests do not depend on whether this checkout built the CMS; one test goes through the
 * real binding and holds whatever it answers to the same headers.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Bindings } from '../../src/env';
import { BASE, call, callWorker, type JsonResponse } from '../support/http';

const INDEX_HTML = '<!doctype html><html><head><script type="module" src="/assets/index-Ab12.js"></script></head><body><div id="root"></div></body></html>';

/**
 * The asset server as wrangler.toml configures it: a file under /assets/ by its name, index.html
 * for any other path (single-page application), 404 for a missing file asked by a script. Records
 * the paths it was asked for.
 */
function fakeAssets() {
  const asked: string[] = [];
  const assets = {
    async fetch(input: Request | string) {
      const request = new Request(input);
      const path = new URL(request.url).pathname;
      asked.push(path);
      if (path === '/assets/index-Ab12.js') return new Response('export {};', { headers: { 'content-type': 'text/javascript', etag: '"ab12"' } });
      if (path.startsWith('/assets/') && request.headers.get('sec-fetch-mode') !== 'navigate') return new Response('Not Found', { status: 404 });
      return new Response(INDEX_HTML, { headers: { 'content-type': 'text/html; charset=utf-8' } });
    },
  };
  return { assets, asked };
}

/** The pool also reads a developer's .dev.vars: the CMS vars are always given explicitly. */
function get(path: string, vars: Partial<Bindings> = {}, headers: Record<string, string> = {}): Promise<JsonResponse> {
  const { assets } = fakeAssets();
  const runEnv = { ...env, CMS_OIDC_ISSUER: undefined, CMS_OIDC_CLIENT_ID: undefined, ASSETS: assets, ...vars } as unknown as Bindings;
  return callWorker(new Request(`${BASE}${path}`, { headers }), runEnv);
}

const PROVIDER = { CMS_OIDC_ISSUER: 'https://login.example.com/realms/loyalty/', CMS_OIDC_CLIENT_ID: 'loyalty-cms' };

/** `default-src 'self'; script-src 'self'` -> { 'default-src': ["'self'"], ... } */
function directives(res: JsonResponse): Record<string, string[]> {
  const policy = res.headers.get('content-security-policy') ?? '';
  return Object.fromEntries(policy.split(';').map((part) => part.trim().split(/\s+/)).map(([name = '', ...sources]) => [name, sources]));
}

function expectSecurityHeaders(res: JsonResponse, path: string) {
  const policy = directives(res);
  expect(policy, path).toMatchObject({
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
    'base-uri': ["'none'"],
    'object-src': ["'none'"],
  });
  // Nothing that would let an injected script or style run: no inline, no eval, no wildcard, no scheme.
  expect(Object.values(policy).flat().filter((source) => /unsafe|\*|^(?:https?|data|blob):$/.test(source)), path).toEqual([]);
  expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
  expect(res.headers.get('x-frame-options'), path).toBe('DENY');
  expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
  expect(res.headers.get('permissions-policy'), path).toMatch(/(?:^|, )camera=\(\)(?:,|$)/);
  expect(res.headers.get('permissions-policy'), path).not.toMatch(/clipboard/);
  expect(res.headers.get('cross-origin-opener-policy'), path).toBe('same-origin');
}

describe('the CMS (every path outside /api/)', () => {
  it('carries the security headers on /, on a deep path of the single-page app and on an /assets/ file', async () => {
    for (const path of ['/', '/t/ten_x/customers/cus_x', '/assets/index-Ab12.js']) {
      const res = await get(path, PROVIDER);
      expect(res.status, path).toBe(200);
      expectSecurityHeaders(res, path);
    }
    expect((await get('/')).text).toBe(INDEX_HTML);
    expect((await get('/assets/index-Ab12.js')).headers.get('content-type')).toBe('text/javascript');
  });

  it('lets the page talk to this origin and the configured OpenID provider only, by its origin', async () => {
    const policy = directives(await get('/t/ten_x', PROVIDER));
    expect(policy['connect-src']).toEqual(["'self'", 'https://login.example.com']);
    // Silent renewal without a refresh token: the provider's authorize page in a hidden iframe.
    expect(policy['frame-src']).toEqual(["'self'", 'https://login.example.com']);
    const external = Object.values(policy).flat().filter((source) => !source.startsWith("'"));
    expect(external).toEqual(['https://login.example.com', 'https://login.example.com']);
    const local = directives(await get('/', { CMS_OIDC_ISSUER: 'http://127.0.0.1:8797', CMS_OIDC_CLIENT_ID: 'loyalty-cms-dev' }));
    expect(local['connect-src']).toEqual(["'self'", 'http://127.0.0.1:8797']);
  });

  it('names no provider when sign-in is off or the configuration is broken, and still serves the CMS (which shows why)', async () => {
    const off = await get('/');
    expect(off.status).toBe(200);
    expect(directives(off)['connect-src']).toEqual(["'self'"]);
    const broken = await get('/', { CMS_OIDC_ISSUER: 'https://login.example.com' }); // without its client id: 503 on the API
    expect(broken.status).toBe(200);
    expect(directives(broken)['connect-src']).toEqual(["'self'"]);
    expectSecurityHeaders(broken, '/ (broken configuration)');
  });

  it('lets /auth/silent (the silent renewal iframe) be framed by the CMS itself, and nothing else', async () => {
    const silent = await get('/auth/silent', PROVIDER);
    expect(directives(silent)['frame-ancestors']).toEqual(["'self'"]);
    expect(silent.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    for (const path of ['/auth/callback', '/auth/silent/x', '/t/ten_x/api-keys']) {
      const res = await get(path, PROVIDER);
      expect(directives(res)['frame-ancestors'], path).toEqual(["'none'"]);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
    }
  });

  it('lets browsers keep a hashed /assets/ file for good, but never index.html or a 404', async () => {
    expect((await get('/assets/index-Ab12.js')).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const navigated = await get('/assets/gone-Zz99.js', {}, { 'sec-fetch-mode': 'navigate' });
    expect(navigated.text).toBe(INDEX_HTML);
    expect(navigated.headers.get('cache-control')).toBeNull();
    const missing = await get('/assets/gone-Zz99.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBeNull();
    expectSecurityHeaders(missing, '/assets/gone-Zz99.js (missing)');
    expect((await get('/t/ten_x')).headers.get('cache-control')).toBeNull();
  });

  it('never answers an API path, known or not, from the assets', async () => {
    const { assets, asked } = fakeAssets();
    const runEnv = { ...env, ASSETS: assets } as unknown as Bindings;
    const unknown = await callWorker(new Request(`${BASE}/api/v1/no-such-route`), runEnv);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await callWorker(new Request(`${BASE}/api/v1/info`), runEnv)).status).toBe(200);
    expect((await callWorker(new Request(`${BASE}/api`), runEnv)).status).toBe(404);
    expect(asked).toEqual([]);
  });

  it('through the real asset binding, whatever it answers outside /api/ (a built CMS or not) carries the headers', async () => {
    for (const path of ['/', '/t/ten_x/customers/cus_x']) {
      const res = await call('GET', path);
      expect([200, 404], path).toContain(res.status);
      expect(res.headers.get('content-security-policy'), path).toMatch(/(?:^|; )frame-ancestors 'none'(?:;|$)/);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });
});

describe('the API', () => {
  it('says nosniff on its answers, errors included', async () => {
    for (const [path, status] of [['/api/v1/info', 200], ['/api/v1/no-such-route', 404], ['/api/v1/docs', 200]] as const) {
      const res = await call('GET', path);
      expect(res.status, path).toBe(status);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });
});
