/**
 * The `exports` measurement (`--only exports`): the 100,000 customers of tenant "large", then its
 * ledger (about three times the rows), exported through the real route and the real queue consumer under `wrangler dev`, as an admin would
 * (POST /exports, poll GET /exports/{id}, download the signed link). Workers have no per-request
 * memory API, so three bounds are measured, each sampled every 50 ms during the export against its
 * level before: the Worker isolate's V8 heap (DevTools `Runtime.getHeapUsage` through the inspector;
 * garbage included, as the inspector of `wrangler dev` grants no forced collection), the resident memory of the `workerd` process (which also holds the local D1 and R2
 * simulators and their SQLite caches, so it overstates the Worker), and the largest buffer the
 * export held, as the run itself logs it (`export written`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { devtools } from './devtools';
import type { BenchTenant } from './state';

export const EXPORTS_MEASUREMENT = 'exports';

export type ExportMeasurement = {
  kind: string;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  fileBytes: number;
  downloadSeconds: number;
  rssBeforeMiB: number;
  rssPeakMiB: number;
  heapBeforeMiB: number;
  heapPeakMiB: number;
  parts: number | undefined;
  peakHeldBytes: number | undefined;
  heapSamplesMissed: number;
};

/** The resident memory (bytes) of every workerd process in the process group `group`. */
function workerdRss(group: number): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid pgrp ...: comm may hold spaces, so split after its closing parenthesis.
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const [, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) !== group || !comm.includes('workerd')) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${entry}/status`, 'utf8'));
      total += rss ? Number(rss[1]) * 1024 : 0;
    } catch {
      // the process ended while being read
    }
  }
  return total;
}

const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Job = { id: string; status: string; rows: number; download_url: string | null; created_at: string; completed_at: string | null };

async function portalJson(baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<Job> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as { data: Job; message?: string };
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${envelope.message ?? ''}`);
  return envelope.data;
}

/** The `export written` line the run logged for `exportId` (src/services/export-jobs.ts), if the log has it. */
function runLogOf(workerLog: string, exportId: string): { parts?: number; peakHeldBytes?: number } {
  const line = readFileSync(workerLog, 'utf8').split('\n').find((text) => text.includes('"export written"') && text.includes(exportId));
  if (!line) return {};
  const logged = JSON.parse(line.slice(line.indexOf('{'))) as { parts?: number; peak_held_bytes?: number };
  return { parts: logged.parts, peakHeldBytes: logged.peak_held_bytes };
}

export async function measureExport(input: {
  baseUrl: string;
  token: string;
  tenant: BenchTenant;
  processGroup: number;
  inspectorPort: number;
  workerLog: string;
  kind: 'customers' | 'internal_transactions';
}): Promise<ExportMeasurement> {
  const { baseUrl, token, tenant, processGroup } = input;
  const inspector = await devtools(input.inspectorPort);
  // A sample the isolate does not answer within a second is skipped and counted, never waited for.
  let heapSamplesMissed = 0;
  const heapUsed = () =>
    inspector.send<{ usedSize: number }>('Runtime.getHeapUsage', {}, 1000).then(
      (usage) => usage.usedSize,
      () => ((heapSamplesMissed += 1), 0),
    );
  let rssBefore = 0;
  let heapBefore = 0;
  for (let i = 0; i < 10; i += 1) {
    rssBefore = Math.max(rssBefore, workerdRss(processGroup));
    heapBefore = Math.max(heapBefore, await heapUsed());
    await sleep(50);
  }
  if (rssBefore === 0) throw new Error(`no workerd process in group ${processGroup}`);
  let peak = rssBefore;
  let heapPeak = heapBefore;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, workerdRss(processGroup));
      heapPeak = Math.max(heapPeak, await heapUsed());
      await sleep(50);
    }
  })();
  const started = Date.now();
  let job = await portalJson(baseUrl, token, 'POST', `/api/v1/tenant/${tenant.id}/exports`, { kind: input.kind });
  const deadline = started + 30 * 60_000;
  while (job.status === 'queued' || job.status === 'running') {
    if (Date.now() > deadline) throw new Error(`export ${job.id} still ${job.status} after 30 minutes`);
    await sleep(200);
    job = await portalJson(baseUrl, token, 'GET', `/api/v1/tenant/${tenant.id}/exports/${job.id}`);
  }
  if (job.status !== 'completed' || !job.download_url || !job.completed_at) throw new Error(`export ${job.id} ended ${job.status}`);
  // From the request to the completed file, by the job's own clock (the queue's wait included), not by when a poll saw it.
  const seconds = (Date.parse(job.completed_at) - Date.parse(job.created_at)) / 1000;
  // The download streams from R2 through the Worker: counted as it arrives, never kept.
  const downloadStarted = Date.now();
  const res = await fetch(job.download_url);
  let fileBytes = 0;
  const reader = res.body?.getReader();
  for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) fileBytes += chunk.value.length;
  const downloadSeconds = (Date.now() - downloadStarted) / 1000;
  sampling = false;
  await sampler;
  inspector.close();
  const run = runLogOf(input.workerLog, job.id);
  return {
    kind: input.kind,
    rows: job.rows,
    seconds,
    rowsPerSecond: job.rows / seconds,
    fileBytes,
    downloadSeconds,
    rssBeforeMiB: rssBefore / MiB,
    rssPeakMiB: peak / MiB,
    heapBeforeMiB: heapBefore / MiB,
    heapPeakMiB: heapPeak / MiB,
    parts: run.parts,
    peakHeldBytes: run.peakHeldBytes,
    heapSamplesMissed,
  };
}

/** The report's section: one row per export; the second file is about three times the first. */
export function exportLines(results: ExportMeasurement[]): string[] {
  const mib = (bytes: number | undefined) => (bytes === undefined ? '-' : `${(bytes / MiB).toFixed(1)} MiB`);
  return [
    'POST /exports on tenant "large", run by the operations queue\'s consumer until `completed` (seconds by the job\'s own clock, from the request), then the signed link downloaded. Memory: before -> peak during the export.',
    '',
    '| kind | rows | seconds | rows/s | file | parts | download s | isolate V8 heap (garbage included) | workerd RSS (with the local D1 and R2 simulators) | largest buffer held (the run\'s own count) |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.kind} | ${r.rows.toLocaleString('en')} | ${r.seconds.toFixed(1)} | ${r.rowsPerSecond.toFixed(0)} | ${mib(r.fileBytes)} | ${r.parts ?? '-'} | ${r.downloadSeconds.toFixed(1)} | ` +
        `${r.heapBeforeMiB.toFixed(1)} -> ${r.heapPeakMiB.toFixed(1)} MiB${r.heapSamplesMissed > 0 ? ` (${r.heapSamplesMissed} samples unanswered)` : ''} | ${r.rssBeforeMiB.toFixed(0)} -> ${r.rssPeakMiB.toFixed(0)} MiB | ${mib(r.peakHeldBytes)} |`,
    ),
    '',
    'Bounded when the peaks stay level while the file grows: the run holds one page of 1,000 rows and one 5 MiB part at a time (part buffers are ArrayBuffers, outside the V8 heap count; the run\'s own count covers them), never the file.',
  ];
}
