/**
 * `npm run test:e2e`: the CMS in a real browser against the real Worker. Builds the CMS, starts
 * `wrangler dev` with a fresh local D1 and the dev sign-in on spare ports (e2e/stack.ts), drives
 * Debian's chromium (CHROMIUM_PATH for another; never a download) through the scenarios,
 * saves screenshots of the main screens at 1280 and 390 px into e2e-screenshots/, and stops every
 * process it started, whatever happens. Exit code 1 when a scenario failed or its screen is missing.
 *
 *   npm run test:e2e
 *   CHROMIUM_PATH=/path/to/chrome npm run test:e2e
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Browser } from 'playwright-core';
import { stopAll, stopEverythingOnExit } from '../bench/lib/processes';
import { buildCms } from '../scripts/lib/cms-build';
import { chromiumPath, DESKTOP, launchChromium, overflowing, resetScreenshots, SCREENSHOTS_DIR } from './browser';
import { framingRefused, servedWithSecurityHeaders } from './scenarios-headers';
import { devSignInRefusals } from './scenarios-oidc';
import { programScenarios } from './scenarios-program';
import { createTenant, servedByTheWorker, signIn } from './scenarios-start';
import { startStack, type Stack } from './stack';
import { newPage, policyViolations, runScenario, type Outcome } from './support';
import type { World } from './world';

const log = (line: string) => console.log(`[e2e] ${line}`);
/** A run takes a minute or two; one stuck on a browser or server that died must not hold CI for hours. */
const RUN_DEADLINE_MS = 15 * 60_000;

async function main(): Promise<number> {
  log(`chromium: ${chromiumPath()}`);
  resetScreenshots();
  log(`cms: ${await buildCms()}`);
  stopEverythingOnExit(log);
  setTimeout(() => {
    log(`stopped: no result after ${RUN_DEADLINE_MS / 60_000} min (a browser or server stopped answering)`);
    void stopAll().finally(() => process.exit(1));
  }, RUN_DEADLINE_MS).unref();
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  const outcomes: Outcome[] = [];
  try {
    stack = await startStack(log);
    browser = await launchChromium();
    log(`browser: ${browser.version()}`);
    const admin = await newPage(await browser.newContext({ viewport: DESKTOP }));
    const world: World = { stack, browser, admin, log };
    const scenarios: Array<[string, (world: World) => Promise<void>]> = [
      ['the Worker serves the CMS at / and the API at /api/v1', servedByTheWorker],
      ['every CMS page and file carries the security headers, naming the dev sign-in as the one other origin', servedWithSecurityHeaders],
      ["a CMS page is refused inside a frame; /auth/silent is drawn in the CMS's own", framingRefused],
      ["the dev sign-in refuses a foreign redirect, no PKCE, a wrong verifier, a reused code or refresh token", devSignInRefusals],
      ['sign in with the dev flow', signIn],
      ['create a tenant', createTenant],
      ...programScenarios,
    ];
    for (const [name, body] of scenarios) outcomes.push(await runScenario(name, () => body(world), log));
    outcomes.push(
      await runScenario('every screen shot fits its width (no sideways scrolling at 1280 or 390 px)', async () => {
        if (overflowing.length > 0) throw new Error(`wider than the window: ${overflowing.join('; ')}`);
      }, log),
      await runScenario('no page refused anything under its Content-Security-Policy', async () => {
        if (policyViolations.length > 0) throw new Error(`refused: ${[...new Set(policyViolations)].join('\n')}`);
      }, log),
    );
  } catch (error) {
    log(`stopped: ${error instanceof Error ? error.message : String(error)}`);
    if (stack) log(`wrangler dev's last lines:\n${readFileSync(stack.logFile, 'utf8').split('\n').slice(-20).join('\n')}`);
    outcomes.push({ name: 'the suite itself', status: 'failed', detail: String(error), seconds: 0 });
  } finally {
    await browser?.close();
    await stack?.stop();
  }
  const count = (status: Outcome['status']) => outcomes.filter((o) => o.status === status).length;
  log(`${count('passed')} passed, ${count('failed')} failed, ${count('missing')} missing a screen; screenshots in ${relative(process.cwd(), SCREENSHOTS_DIR)}/`);
  return count('failed') + count('missing') > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`[e2e] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
