/**
 * Cron Triggers never fire by themselves under `wrangler dev`, yet settlement and cohorts need
 * their crons (receipts followed, balances indexed, cohort re-evaluations applied). While the dev
 * server runs, this ticker asks workerd to run every every-minute cron of wrangler.toml each few seconds, through
 * `/__scheduled` (`wrangler dev --test-scheduled`), which wrangler serves inside the Worker itself.
 * Not `/cdn-cgi/handler/scheduled`: with static assets, miniflare 4.20260426 hands that event to
 * its assets proxy, which has no scheduled handler and answers "exception" (workers-sdk #9882,
 * fixed in later miniflare). wrangler.toml runs the Worker first for every request
 * (`run_worker_first = true`), so the assets do not answer it. It stays quiet unless a run fails,
 * and says once when it recovers.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { readWranglerCrons } from './wrangler-vars';

const REQUEST_TIMEOUT_MS = 30_000;

/** `* * * * *` or `*\/1 * * * *`: the crons that would have fired several times a minute in production terms. */
export function isEveryMinute(cron: string): boolean {
  const [minute, ...rest] = cron.trim().split(/\s+/);
  return (minute === '*' || minute === '*/1') && rest.length === 4 && rest.every((field) => field === '*');
}

/** The local URL that runs one scheduled event for `cron` (also what the dev summary prints). */
export function scheduledUrl(baseUrl: string, cron: string): string {
  return `${baseUrl}/__scheduled?cron=${cron.trim().replace(/\s+/g, '+')}`;
}

/** Echoes wrangler's output but its request line for each tick (one every few seconds would drown the rest). */
export function echoWithoutTickerLines(output: Readable): void {
  createInterface({ input: output, crlfDelay: Infinity }).on('line', (line) => {
    if (!/ \/__scheduled(\?\S*)? /.test(line)) process.stdout.write(`${line}\n`);
  });
}

export type CronTicker = { crons: string[]; stop(): void };

/**
 * @example const ticker = startCronTicker('http://127.0.0.1:8787', 3000, log); ... ticker.stop();
 */
export function startCronTicker(baseUrl: string, intervalMs: number, log: (message: string) => void): CronTicker {
  const crons = readWranglerCrons().filter(isEveryMinute);
  let running = false;
  const lastFailure = new Map<string, string>();

  const tick = async () => {
    if (running) return; // a slow run (a large indexing range) is not stacked on
    running = true;
    try {
      for (const cron of crons) {
        let failure: string | undefined;
        try {
          const res = await fetch(scheduledUrl(baseUrl, cron), { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
          // workerd answers 500 when the handler threw; the Worker logs the reason itself.
          if (!res.ok) failure = `cron "${cron}" failed (HTTP ${res.status}; see the Worker log above)`;
        } catch (error) {
          failure = `cron "${cron}" could not run: ${error instanceof Error ? error.message : String(error)}`;
        }
        if (failure && failure !== lastFailure.get(cron)) log(failure);
        if (!failure && lastFailure.has(cron)) log(`cron "${cron}" runs again`);
        if (failure) lastFailure.set(cron, failure);
        else lastFailure.delete(cron);
      }
    } finally {
      running = false;
    }
  };

  const timer = crons.length > 0 ? setInterval(() => void tick(), intervalMs) : undefined;
  return { crons, stop: () => clearInterval(timer) };
}
