/**
 * Command line of `npm run bench` (bench/README.md): sizes, load shape and what to run.
 */
import { parseArgs } from 'node:util';

export type BenchOptions = {
  /** Customers of tenant "large" (the one every throughput route runs on). */
  customers: number;
  /** Customers of tenant "small" (the other side of the scale factor). */
  small: number;
  connections: number;
  /** Seconds per route per round, for the route and for its baseline counterpart each. */
  duration: number;
  rounds: number;
  /** Sequential requests per route and tenant for the single-request scale factor. */
  scaleRequests: number;
  soak: boolean;
  soakSeconds: number;
  soakConnections: number;
  /** Keep the state directory (secrets, loaded D1, tenants) of the previous run instead of rebuilding it. */
  reuse: boolean;
  /** Only these routes (comma-separated names, e.g. `gateway-xp,portal-top-countries`); all when empty. `imports` is the imports measurement. */
  only: string[];
  /** Rows of each imported file (customers, then their opening balances) in the `imports` measurement. */
  importRows: number;
};

const USAGE = `npm run bench -- [--customers 100000] [--small 1000] [--connections 16] [--duration 10] [--rounds 3]
                  [--scale-requests 30] [--soak] [--soak-seconds 120] [--soak-connections 64] [--reuse] [--only a,b]
                  [--import-rows 100000]`;

function wholeNumber(name: string, raw: string, min: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new Error(`--${name} must be a whole number >= ${min} (got "${raw}")\n${USAGE}`);
  return Number(raw);
}

export function parseBenchOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      customers: { type: 'string', default: '100000' },
      small: { type: 'string', default: '1000' },
      connections: { type: 'string', default: '16' },
      duration: { type: 'string', default: '10' },
      rounds: { type: 'string', default: '3' },
      'scale-requests': { type: 'string', default: '30' },
      soak: { type: 'boolean', default: false },
      'soak-seconds': { type: 'string', default: '120' },
      'soak-connections': { type: 'string', default: '64' },
      reuse: { type: 'boolean', default: false },
      only: { type: 'string', default: '' },
      'import-rows': { type: 'string', default: '100000' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  return {
    customers: wholeNumber('customers', values.customers, 100),
    small: wholeNumber('small', values.small, 100),
    connections: wholeNumber('connections', values.connections, 1),
    duration: wholeNumber('duration', values.duration, 1),
    rounds: wholeNumber('rounds', values.rounds, 0),
    scaleRequests: wholeNumber('scale-requests', values['scale-requests'], 0),
    soak: values.soak,
    soakSeconds: wholeNumber('soak-seconds', values['soak-seconds'], 1),
    soakConnections: wholeNumber('soak-connections', values['soak-connections'], 1),
    reuse: values.reuse,
    only: values.only.split(',').map((name) => name.trim()).filter(Boolean),
    importRows: wholeNumber('import-rows', values['import-rows'], 100),
  };
}
