/**
 * The CMS's security headers as `wrangler dev` serves them (src/routes/cms): on every page and file,
 * with this run's dev sign-in as the one other origin the CMS may talk to; and what Chromium makes
 * of them when someone frames the CMS.
 */
import type { Page } from 'playwright-core';
import type { World } from './world';

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

/** `/`, a deep path of the single-page app and one of the files index.html loads. */
export async function servedWithSecurityHeaders({ stack }: World): Promise<void> {
  const html = await (await fetch(`${stack.baseUrl}/`)).text();
  const asset = /\bsrc="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  check(asset !== undefined, "index.html loads no /assets/ script");
  const provider = new URL(stack.issuer).origin;
  for (const path of ['/', '/t/ten_x/customers/cus_x', asset!]) {
    const res = await fetch(`${stack.baseUrl}${path}`);
    check(res.status === 200, `GET ${path} answered ${res.status}`);
    const policy = res.headers.get('content-security-policy') ?? '';
    for (const directive of ["default-src 'self'", "script-src 'self'", "style-src 'self'", `connect-src 'self' ${provider}`, "frame-ancestors 'none'", "base-uri 'none'", "object-src 'none'"]) {
      check(policy.split('; ').includes(directive), `GET ${path}: the Content-Security-Policy lacks "${directive}" (${policy || 'no policy'})`);
    }
    const expected = { 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' };
    for (const [name, value] of Object.entries(expected)) check(res.headers.get(name) === value, `GET ${path}: ${name} is ${res.headers.get(name)}, not ${value}`);
    check((res.headers.get('permissions-policy') ?? '').includes('camera=()'), `GET ${path}: no Permissions-Policy`);
  }
}

/**
 * Whether Chromium drew the CMS's `path` in an iframe of `page` (a CMS page too, so the same
 * origin): a refused frame holds an error page, without the CMS's #root (no load in 10 s counts as
 * refused; the caller also checks Chromium's reason). A string: see browser.ts.
 */
function framed(page: Page, path: string): Promise<boolean> {
  return page.evaluate(`new Promise((resolve) => {
    const frame = document.createElement('iframe');
    frame.onload = () => resolve(frame.contentDocument?.getElementById('root') != null);
    setTimeout(() => resolve(false), 10000);
    frame.src = ${JSON.stringify(path)};
    document.body.append(frame);
  })`);
}

/**
 * A CMS page inside a frame is refused (clickjacking of admin screens), even by the CMS itself;
 * /auth/silent, the page of a silent renewal without a refresh token, is allowed in the CMS's own
 * frame. In a browser context of its own whose refusals are expected, not counted as violations.
 */
export async function framingRefused({ stack, browser }: World): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (message) => void (/frame-ancestors/.test(message.text()) && refused.push(message.text())));
    await page.goto(`${stack.baseUrl}/`);
    check(await framed(page, '/auth/silent'), '/auth/silent was not drawn in a frame of the CMS itself');
    check(refused.length === 0, `/auth/silent in the CMS's own frame was refused: ${refused.join('; ')}`);
    check(!(await framed(page, '/t/ten_x/customers')), 'a CMS page was drawn inside a frame');
    check(refused.some((text) => text.includes("frame-ancestors 'none'")), "Chromium did not name frame-ancestors 'none' for the refused frame");
  } finally {
    await context.close();
  }
}
