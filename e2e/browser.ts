/**
 * Debian's chromium driven by playwright-core: never a browser download (playwright-core has no
 * install step; this suite refuses to run without a chromium on disk). CHROMIUM_PATH points at
 * another one. Screenshots of each main screen at 1280 and 390 px wide into e2e-screenshots/.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from '../scripts/lib/dev-files';

export const SCREENSHOTS_DIR = join(ROOT, 'e2e-screenshots');
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new Error(
      `no chromium at ${path}. Install Debian's (apt-get install -y chromium) or point CHROMIUM_PATH at a Chromium or Chrome binary; this suite never downloads a browser.`,
    );
  }
  return path;
}

export async function launchChromium(): Promise<Browser> {
  // --no-sandbox: CI containers run as root, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'], headless: true });
}

export function resetScreenshots(): void {
  rmSync(SCREENSHOTS_DIR, { recursive: true, force: true });
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
}

let shot = 0;
/** Screens wider than the window at some width (a page that scrolls sideways at 390 px is broken there). */
export const overflowing: string[] = [];

/**
 * The page as it is, at both widths (then back to the first): `NN-<name>-1280.png` and `-390.png`.
 * Waits for the network to settle so no "Loading…" is captured by accident.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  shot += 1;
  const prefix = String(shot).padStart(2, '0');
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.waitForLoadState('networkidle');
    const scrollWidth = await settledScrollWidth(page, size.width);
    if (scrollWidth > size.width) {
      overflowing.push(`${name} at ${size.width} px (${scrollWidth} px wide: ${await pastTheEdge(page, size.width)})`);
      await page.screenshot({ path: join(SCREENSHOTS_DIR, `${prefix}-${name}-${size.width}-overflowing.png`) });
    }
    await page.screenshot({ path: join(SCREENSHOTS_DIR, `${prefix}-${name}-${size.width}.png`), fullPage: true });
  }
  await page.setViewportSize(WIDTHS[0]);
}

/**
 * The page's width once a resize has settled. Charts size themselves from a ResizeObserver, a
 * frame or more after the viewport changes, so a width read at once can still be the old
 * layout's: wait (bounded) for the page to fit, and report the width it keeps if it never does.
 */
async function settledScrollWidth(page: Page, width: number): Promise<number> {
  await page
    .waitForFunction((limit) => document.documentElement.scrollWidth <= limit, width, { polling: 'raf', timeout: 2_000 })
    .catch(() => undefined);
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/**
 * The outermost elements reaching past the window's right edge (not those that scroll inside a
 * box of their own, like the phone's nav), to name the culprit. A string:
 * tsx would wrap a named arrow function in a helper the page does not have.
 */
function pastTheEdge(page: Page, width: number): Promise<string> {
  return page.evaluate(`(() => {
    const past = (el) => el.getBoundingClientRect().right > ${width} + 0.5;
    const scrolledWithin = (el) => { for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) if (getComputedStyle(box).overflowX !== 'visible' && !past(box)) return true; return false; };
    const wide = [...document.body.querySelectorAll('*')].filter((el) => past(el) && !scrolledWithin(el));
    const outermost = wide.filter((el) => !wide.includes(el.parentElement));
    return outermost.slice(0, 3).map((el) => el.tagName.toLowerCase() + (typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).join('.') : '') + ' to ' + Math.round(el.getBoundingClientRect().right) + ' px').join(', ') || 'no element';
  })()`);
}

export const DESKTOP = WIDTHS[0];
