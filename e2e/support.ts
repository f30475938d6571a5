/**
 * The suite's vocabulary: scenarios with an outcome each (passed, failed, or missing: the CMS has
 * no screen for it yet, said so rather than faked), signing in through the dev sign-in as a person
 * would, and moving around the CMS by its navigation.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { Stack } from './stack';

/** The CMS lacks what a scenario needs (a screen, a link, a control): reported as missing. */
export class Missing extends Error {}

export type Outcome = { name: string; status: 'passed' | 'failed' | 'missing'; detail?: string; seconds: number };

/** How long a control the CMS should already show may take to appear (a fresh page load included). */
export const APPEAR_MS = 15_000;
/** How long to look for a link or control before calling it missing. */
const PRESENT_MS = 5_000;

export async function runScenario(name: string, body: () => Promise<void>, log: (line: string) => void): Promise<Outcome> {
  const started = Date.now();
  let outcome: Outcome;
  try {
    await body();
    outcome = { name, status: 'passed', seconds: 0 };
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n').slice(0, 6).join('\n') : String(error);
    outcome = { name, status: error instanceof Missing ? 'missing' : 'failed', detail, seconds: 0 };
  }
  outcome.seconds = Math.round((Date.now() - started) / 100) / 10;
  const mark = { passed: 'ok     ', failed: 'FAILED ', missing: 'MISSING' }[outcome.status];
  log(`${mark} ${name} (${outcome.seconds} s)${outcome.detail ? `\n        ${outcome.detail.replace(/\n/g, '\n        ')}` : ''}`);
  return outcome;
}

/** `locator`, or Missing naming `what` when it does not show up. */
export async function present(locator: Locator, what: string): Promise<Locator> {
  try {
    await locator.first().waitFor({ state: 'visible', timeout: PRESENT_MS });
  } catch {
    throw new Missing(`the CMS shows no ${what}`);
  }
  return locator.first();
}

/**
 * Through the dev sign-in as a person: the CMS's "Sign in", the provider's form (the first time in
 * this browser context; afterwards its session answers at once), back to where it started.
 */
export async function signInIfAsked(page: Page, stack: Stack, email: string): Promise<void> {
  const signIn = page.getByRole('button', { name: 'Sign in', exact: true });
  const signedIn = page.getByRole('button', { name: 'Sign out' });
  await signIn.or(signedIn).first().waitFor({ state: 'visible', timeout: APPEAR_MS });
  if (await signedIn.isVisible()) return;
  await signIn.click();
  const emailField = page.getByLabel('Email');
  await emailField.or(signedIn).first().waitFor({ state: 'visible', timeout: APPEAR_MS });
  if (page.url().startsWith(stack.issuer)) {
    await emailField.fill(email);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await signedIn.waitFor({ state: 'visible', timeout: APPEAR_MS }).catch(async (error: unknown) => {
    // Say where the sign-in stopped (a failed callback shows the provider's or the API's reason).
    const shown = await page.locator('body').innerText().catch(() => '');
    throw new Error(`not signed in at ${page.url()}: "${shown.replace(/\s+/g, ' ').trim().slice(0, 300)}" (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
  });
}

/**
 * Opens `path` of the CMS as a fresh load (tokens live in memory, so a load signs in again through
 * the provider's session) and waits until it is signed in.
 */
export async function visit(page: Page, stack: Stack, path: string, email: string): Promise<void> {
  await page.goto(`${stack.baseUrl}${path}`);
  await signInIfAsked(page, stack, email);
}

/** Follows the navigation link `name` (Missing when the CMS has none), as a person would. */
export async function navigate(page: Page, name: string | RegExp): Promise<void> {
  const link = await present(page.getByRole('navigation').getByRole('link', { name }), `"${String(name)}" link in its navigation`);
  await link.click();
}

/** The value next to `label` in a page's facts (a `dt` and its `dd`: "Lifetime XP", "Pending period"). */
export async function factShown(page: Page, label: string): Promise<string> {
  const term = page.locator('dt').filter({ hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).first();
  return (await term.locator('xpath=following-sibling::dd[1]').innerText()).trim();
}

/**
 * What pages of the run refused under their Content-Security-Policy (and errors in a policy header
 * itself), from Chromium's console and the pages' `securitypolicyviolation` events: the run fails
 * on any (e2e/run.ts), so a change that needs more than the policy allows is caught here.
 */
export const policyViolations: string[] = [];
const POLICY_MESSAGE = /Content Security Policy|Content-Security-Policy|Permissions-Policy/;
const watchedContexts = new WeakSet<BrowserContext>();

/** Once per browser context: every document of it reports its violations (a string: see e2e/browser.ts pastTheEdge). */
async function watchPolicy(context: BrowserContext): Promise<void> {
  if (watchedContexts.has(context)) return;
  watchedContexts.add(context);
  await context.exposeBinding('e2eReportViolation', ({ frame }, text: string) => void policyViolations.push(`${frame.url()}: ${text}`));
  await context.addInitScript(`document.addEventListener('securitypolicyviolation', (event) => window.e2eReportViolation(event.effectiveDirective + ' refused ' + (event.blockedURI || 'inline code')));`);
}

export async function newPage(context: BrowserContext): Promise<Page> {
  await watchPolicy(context);
  const page = await context.newPage();
  page.setDefaultTimeout(APPEAR_MS);
  page.on('console', (message) => {
    if (POLICY_MESSAGE.test(message.text())) policyViolations.push(`${page.url()}: ${message.text()}`);
  });
  return page;
}
