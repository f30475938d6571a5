/**
 * The bench's output: markdown tables of throughput against the baseline, single-request scale
 * factor and soak, printed and written to bench/results/latest.md. Targets are issue 10's; a miss
 * is reported (MISS), never an exit code: the bench measures, it does not assert.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../scripts/lib/dev-files';
import { median, type LoadResult } from './load';
import { IMPORT_WINDOW, type ImportRun } from './imports';
import { exportLines, type ExportMeasurement } from './exports';
import { shardsLines, type ShardsMeasurement } from './shards';
import type { Rounds, ScaleRow } from './measure';
import type { BenchOptions } from './options';
import { RESULTS_DIR } from './state';

/** Single-request latency at "large" may be at most this many times that at "small". */
export const SCALE_TARGET = 1.5;

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
const verdict = (pass: boolean) => (pass ? 'pass' : '**MISS**');

/** "0", or "12 (401: 10, 500: 2) 5xx!" */
function nonSuccess(statuses: Record<string, number>): string {
  const failures = Object.entries(statuses).filter(([status]) => !/(^| )2\d\d$/.test(status));
  const total = failures.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return '0';
  const serverErrors = failures.some(([status]) => /(^| )5\d\d$/.test(status));
  return `${total} (${failures.map(([status, n]) => `${status}: ${n}`).join(', ')})${serverErrors ? ' **5xx!**' : ''}`;
}

function mergeStatuses(results: LoadResult[]): Record<string, number> {
  const merged: Record<string, number> = {};
  for (const result of results) for (const [status, n] of Object.entries(result.statuses)) merged[status] = (merged[status] ?? 0) + n;
  for (const result of results) if (result.errors > 0) merged['connection errors'] = (merged['connection errors'] ?? 0) + result.errors;
  return merged;
}

function throughputTable(rounds: Rounds, misses: string[]): string[] {
  const lines = ['| route | req/s | p50 ms | p99 ms | baseline req/s | ratio | target | pass/fail | non-2xx |', '|---|---|---|---|---|---|---|---|---|'];
  for (const { route, runs, baselineRuns } of rounds.rows) {
    // Each round's ratio compares two runs made back to back; the median of those is the ratio.
    const ratio = median(runs.map((run, i) => run.rps / (baselineRuns[i]?.rps ?? Number.NaN)));
    const pass = ratio >= route.target;
    if (!pass) misses.push(`${route.name}: ${fixed(ratio, 2)}x < ${route.target}x`);
    lines.push(
      `| ${route.label} | ${fixed(median(runs.map((r) => r.rps)))} | ${fixed(median(runs.map((r) => r.p50)))} | ${fixed(median(runs.map((r) => r.p99)))} ` +
        `| ${fixed(median(baselineRuns.map((r) => r.rps)))} (${route.counterpart}) | ${fixed(ratio, 2)}x | >= ${route.target}x | ${verdict(pass)} | ${nonSuccess(mergeStatuses(runs))} |`,
    );
  }
  const { hello } = rounds;
  if (hello.length > 0) {
    lines.push(`| baseline GET /hello (reference) | ${fixed(median(hello.map((r) => r.rps)))} | ${fixed(median(hello.map((r) => r.p50)))} | ${fixed(median(hello.map((r) => r.p99)))} | - | - | - | - | ${nonSuccess(mergeStatuses(hello))} |`);
  }
  const baselineFailures = nonSuccess(mergeStatuses(rounds.rows.flatMap((row) => row.baselineRuns)));
  if (baselineFailures !== '0') lines.push('', `Baseline non-2xx: ${baselineFailures}`);
  return lines;
}

function scaleTable(rows: ScaleRow[], options: BenchOptions, misses: string[]): string[] {
  const lines = [
    `| route | ${options.small.toLocaleString('en')} customers, ms | ${options.customers.toLocaleString('en')} customers, ms | factor | target | pass/fail | non-2xx |`,
    '|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const factor = row.largeMs / row.smallMs;
    const pass = factor <= SCALE_TARGET;
    if (!pass) misses.push(`scale ${row.route.name}: ${fixed(factor, 2)}x > ${SCALE_TARGET}x`);
    lines.push(`| ${row.route.label} | ${fixed(row.smallMs, 1)} | ${fixed(row.largeMs, 1)} | ${fixed(factor, 2)}x | <= ${SCALE_TARGET}x | ${verdict(pass)} | ${nonSuccess(row.statuses)} |`);
  }
  return lines;
}

function soakLines(result: LoadResult, options: BenchOptions, misses: string[]): string[] {
  const total = Object.values(result.statuses).reduce((sum, n) => sum + n, 0);
  const serverErrors = Object.entries(result.statuses).filter(([key]) => / 5\d\d$/.test(key)).reduce((sum, [, n]) => sum + n, 0);
  if (serverErrors > 0 || result.errors > 0) misses.push(`soak: ${serverErrors} 5xx, ${result.errors} connection errors`);
  return [
    `${options.soakSeconds} s at ${options.soakConnections} connections over a mix of every route: ${total.toLocaleString('en')} responses, ` +
      `${fixed(result.rps)} 2xx/s, p50 ${result.p50} ms, p99 ${result.p99} ms.`,
    '',
    `- 5xx: **${serverErrors}** (target 0) ${verdict(serverErrors === 0 && result.errors === 0)}; connection errors: ${result.errors}`,
    `- non-2xx: ${nonSuccess(result.statuses)}`,
  ];
}

function header(options: BenchOptions): string[] {
  let commit = 'unknown';
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    commit = git('rev-parse', '--short', 'HEAD');
    if (git('status', '--porcelain', '--', 'src', 'migrations')) commit += ' + uncommitted changes in src/ or migrations/';
  } catch {
    // not a git checkout
  }
  return [
    `# npm run bench, ${new Date().toISOString()}`,
    '',
    `Commit ${commit}; node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}).`,
    [
      `Tenant "large": ${options.customers.toLocaleString('en')} customers, "small": ${options.small.toLocaleString('en')}`,
      options.rounds > 0 ? `${options.connections} connections, ${options.duration} s per route per round, medians of ${options.rounds} rounds` : undefined,
      options.scaleRequests > 0 ? `${options.scaleRequests} sequential requests per route and tenant for the scale factor` : undefined,
    ]
      .filter(Boolean)
      .join('; ') + '.',
  ];
}

/** An import's rate may be no less than this share of the bare batched insert's (issue 24). */
export const IMPORT_TARGET = 0.3;
/** The last window's rate may be no less than this share of the first's: "a flat rate". */
export const IMPORT_FLATNESS = 0.8;

function importsTable(runs: ImportRun[], misses: string[]): string[] {
  const lines = [
    `| file | rows | rows/s | baseline rows/s | ratio | target | first ${IMPORT_WINDOW.toLocaleString('en')} rows/s | last ${IMPORT_WINDOW.toLocaleString('en')} rows/s | last/first | baseline last/first | failed rows | pass/fail |`,
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const run of runs) {
    const rate = run.rows / run.seconds;
    const baseline = run.rows / run.baselineSeconds;
    const ratio = rate / baseline;
    const flat = run.lastRate / run.firstRate;
    const pass = ratio >= IMPORT_TARGET && flat >= IMPORT_FLATNESS && run.rowsFailed === 0;
    if (!pass) misses.push(`imports ${run.kind} ${fixed(ratio, 2)}x (last/first ${fixed(flat, 2)})`);
    lines.push(`| ${run.kind} | ${run.rows.toLocaleString('en')} | ${fixed(rate)} | ${fixed(baseline)} | ${fixed(ratio, 2)}x | >= ${IMPORT_TARGET}x, last/first >= ${IMPORT_FLATNESS} | ${fixed(run.firstRate)} | ${fixed(run.lastRate)} | ${fixed(flat, 2)} | ${fixed(run.baselineLastRate / run.baselineFirstRate, 2)} | ${run.rowsFailed} | ${verdict(pass)} |`);
  }
  return lines;
}

export type Report = { rounds?: Rounds; scale?: ScaleRow[]; soak?: LoadResult; imports?: ImportRun[]; exports?: ExportMeasurement[]; shards?: ShardsMeasurement; failures: string[] };

/** The whole report as markdown; also written to bench/results/latest.md. Returns the text and the misses. */
export function writeReport(report: Report, options: BenchOptions): { text: string; misses: string[] } {
  const misses: string[] = [];
  const lines = header(options);
  if (report.failures.length > 0) lines.push('', '## Routes that did not answer 2xx before the measurement', '', ...report.failures.map((f) => `- ${f}`));
  if (report.rounds) lines.push('', '## Throughput against the bare baseline (tenant "large")', '', ...throughputTable(report.rounds, misses));
  if (report.scale) lines.push('', '## Single-request latency, "small" against "large" (medians)', '', ...scaleTable(report.scale, options, misses));
  if (report.imports) lines.push('', '## Imports through the queue against a bare batched insert (tenant "large")', '', ...importsTable(report.imports, misses));
  if (report.soak) lines.push('', '## Soak', '', ...soakLines(report.soak, options, misses));
  if (report.exports) lines.push('', '## Export of tenant "large"', '', ...exportLines(report.exports));
  if (report.shards) lines.push('', '## Concurrent writes of two tenants: two shards against one', '', ...shardsLines(report.shards));
  lines.push('', misses.length === 0 ? 'All targets met.' : `**MISS** (${misses.length}): ${misses.join('; ')}`);
  const text = `${lines.join('\n')}\n`;
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'latest.md'), text);
  return { text, misses };
}
