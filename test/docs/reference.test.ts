/**
 * The API reference renders offline (docs/decisions/0064-api-reference-offline.md): the page at
 * /api/v1/docs and every file it references come from this Worker (its [assets]), none from a CDN,
 * and what the bundle could fetch by itself at load is switched off by the page.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Bindings } from '../../src/env';
import { BASE, call, callWorker, expectError, type JsonResponse } from '../support/http';

const ORIGIN = new URL(BASE).origin;

/** Every URL an HTML page can make the browser load or follow: attributes, CSS url(), absolute URLs anywhere (inline script). */
function referencedUrls(html: string): string[] {
  const attributes = [...html.matchAll(/\b(?:src|href|action|srcset|poster|data)\s*=\s*["']?([^"'\s>]+)/gi)].map((match) => match[1]!);
  const cssUrls = [...html.matchAll(/url\(\s*["']?([^"')]+)/gi)].map((match) => match[1]!);
  const absolute = [...html.matchAll(/(?:https?:)?\/\/[A-Za-z0-9.-]+\.[A-Za-z]{2,}[^\s"'<>)]*/g)].map((match) => match[0]);
  return [...attributes, ...cssUrls, ...absolute];
}

/** The page's script and stylesheet files, as same-origin paths. */
function assetPaths(html: string): { scripts: string[]; stylesheets: string[] } {
  const scripts = [...html.matchAll(/<script\b[^>]*\bsrc\s*=\s*["']([^"']+)/gi)].map((match) => new URL(match[1]!, `${BASE}/api/v1/docs`).pathname);
  const stylesheets = [...html.matchAll(/<link\b[^>]*\brel\s*=\s*["']stylesheet["'][^>]*>/gi)]
    .map((match) => /\bhref\s*=\s*["']([^"']+)/i.exec(match[0])?.[1])
    .flatMap((href) => (href === undefined ? [] : [new URL(href, `${BASE}/api/v1/docs`).pathname]));
  return { scripts, stylesheets };
}

/** Hosts that serve fonts, scripts or stylesheets to pages: the page must not depend on any. */
const CDN_HOSTS = /(?:cdn\.jsdelivr\.net|unpkg\.com|cdnjs\.cloudflare\.com|fonts\.googleapis\.com|fonts\.gstatic\.com|fonts\.scalar\.com|use\.typekit\.net|use\.fontawesome\.com)/i;
/** An absolute URL of a file a page loads as a resource (a font, a script, a stylesheet). */
const ABSOLUTE_RESOURCE = /https?:\/\/[^\s"'`)]+\.(?:woff2?|ttf|otf|eot|js|mjs|css)(?=[\s"'`)?#]|$)/gi;

async function page(): Promise<JsonResponse> {
  const res = await call('GET', '/api/v1/docs');
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  return res;
}

describe('GET /api/v1/docs (the API reference)', () => {
  it('is an HTML page that reads the OpenAPI document and references nothing off-origin', async () => {
    const { text } = await page();
    expect(text).toContain('/api/v1/openapi.json');
    const urls = referencedUrls(text);
    expect(urls.length).toBeGreaterThan(0);
    // data: URLs (the empty favicon) are the page's own bytes, not a load.
    const offOrigin = urls.filter((url) => !url.startsWith('data:') && new URL(url, `${BASE}/api/v1/docs`).origin !== ORIGIN);
    expect(offOrigin).toEqual([]);
    const { scripts, stylesheets } = assetPaths(text);
    expect(scripts.length).toBeGreaterThan(0);
    expect(stylesheets.length).toBeGreaterThan(0);
  });

  it('tells the browser to load nothing from another origin (Content-Security-Policy)', async () => {
    const { headers, text } = await page();
    const policy = headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/(?:^|; )default-src 'self'(?:;|$)/);
    // The inline start-up runs only if the policy carries its exact hash.
    const inline = [...text.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
    expect(inline).toHaveLength(1);
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(inline[0])));
    expect(policy).toContain(`script-src 'self' 'sha256-${btoa(String.fromCharCode(...digest))}'`);
    // Sources are 'self', hashes, 'unsafe-inline' (style attributes), data: (CSS icons) and 'none': no host.
    const sources = policy.split('; ').flatMap((directive) => directive.split(' ').slice(1));
    expect(sources.filter((source) => !/^(?:'self'|'none'|'unsafe-inline'|'sha256-[A-Za-z0-9+/]+=*'|data:)$/.test(source))).toEqual([]);
  });

  it('serves the script and stylesheet it references itself, as JavaScript and CSS', async () => {
    const { text } = await page();
    const { scripts, stylesheets } = assetPaths(text);
    for (const [paths, type] of [
      [scripts, /^(?:text|application)\/javascript/],
      [stylesheets, /^text\/css/],
    ] as const) {
      for (const path of paths) {
        const res = await call('GET', path);
        expect(res.status, path).toBe(200);
        expect(res.headers.get('content-type'), path).toMatch(type);
        expect(res.text.length, path).toBeGreaterThan(10_000);
        expect(res.headers.get('x-request-id'), path).toBeTruthy();
      }
    }
  });

  it('uses a bundle and stylesheet that load no font, script or stylesheet from another host, as the page configures them', async () => {
    const { text } = await page();
    const { scripts, stylesheets } = assetPaths(text);
    for (const path of [...scripts, ...stylesheets]) {
      const served = (await call('GET', path)).text;
      expect(served.match(CDN_HOSTS), path).toBeNull();
      expect(served.match(ABSOLUTE_RESOURCE) ?? [], path).toEqual([]);
      expect(served.match(/@import|@font-face/g) ?? [], path).toEqual([]);
      expect(served.match(/url\(\s*["']?https?:/gi) ?? [], path).toEqual([]);
    }
    // The one host the bundle calls by default is Swagger's online validator (a badge image of the
    // document): the page switches it off.
    expect(text).toMatch(/"validatorUrl":\s*null/);
  });

  it('answers 404 NOT_FOUND in the envelope for a file it does not serve', async () => {
    expectError(await call('GET', '/api/v1/docs/index.html'), 404, 'NOT_FOUND');
    expectError(await call('GET', '/api/v1/docs/swagger-ui.js.map'), 404, 'NOT_FOUND');
  });

  it('answers whatever the configuration (page, its files, the document), but says so when the assets are not bound', async () => {
    const broken = { ...env, API_KEY_ENCRYPTION_KEY: undefined, KV: undefined } as unknown as Bindings;
    const get = (path: string, runEnv: Bindings) => callWorker(new Request(`${BASE}${path}`), runEnv);
    const html = await get('/api/v1/docs', broken);
    expect(html.status, html.text).toBe(200);
    expect((await get('/api/v1/openapi.json', broken)).status).toBe(200);
    for (const path of [...assetPaths(html.text).scripts, ...assetPaths(html.text).stylesheets]) {
      expect((await get(path, broken)).status, path).toBe(200);
      const unbound = await get(path, { ...env, ASSETS: undefined } as unknown as Bindings);
      expectError(unbound, 503, 'SERVICE_MISCONFIGURED', /^ASSETS is not bound/);
      // Bound, but deployed without the copied files (the build command skipped).
      const empty = { fetch: async () => new Response('Not Found', { status: 404 }) };
      const missing = await get(path, { ...env, ASSETS: empty } as unknown as Bindings);
      expectError(missing, 503, 'SERVICE_MISCONFIGURED', /is missing from the static assets/);
    }
    // Any other route still refuses a broken configuration.
    expectError(await get('/api/v1/system/masterdata', broken), 503, 'SERVICE_MISCONFIGURED');
  });
});
