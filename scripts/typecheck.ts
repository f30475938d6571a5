/**
 * `npm run typecheck` runs this after compiling the contracts: the three TypeScript projects (the
 * Worker and its tests, the Node scripts, the CMS) and the layer check, at once. tsc is
 * single-threaded, so one at a time leaves a core idle: together they take the longest one's time.
 * Each check's output is printed whole when it ends; exits 1 if any failed.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSC = 'node_modules/typescript/bin/tsc';

const CHECKS: { name: string; args: string[] }[] = [
  { name: 'tsc (Worker and tests)', args: [TSC, '--noEmit'] },
  { name: 'tsc (scripts)', args: [TSC, '--noEmit', '-p', 'tsconfig.node.json'] },
  { name: 'tsc (CMS)', args: [TSC, '--noEmit', '-p', 'web/tsconfig.json'] },
  { name: 'layers', args: ['--import', 'tsx', 'scripts/check-layers.ts'] },
];

function run({ name, args }: (typeof CHECKS)[number]): Promise<boolean> {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('close', (code) => {
      if (code === 0) {
        process.stdout.write(output);
      } else {
        process.stderr.write(`${name} failed:\n${output}`);
      }
      done(code === 0);
    });
  });
}

const results = await Promise.all(CHECKS.map(run));
if (results.includes(false)) process.exit(1);
