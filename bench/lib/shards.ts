/**
 * The shards measurement (`--only shards`; issue 25): the same concurrent write load from two
 * tenants, once with the two on two shards and once with both on one shard. Three fresh tenants
 * are made through the API; the placement rule (the shard with the fewest tenants) puts the first
 * and third on one shard and the second on the other, which the directory then confirms. The load
 * is `POST /gateway/xp` earns, taking turns between the two tenants of a setup, each over 20
 * customers of its own; the setups take turns over the rounds, so both see the machine alike.
 */
import { execFileSync } from 'node:child_process';
import { apiCall, dataOf, type GatewayKey } from '../../scripts/lib/api-client';
import { drive, median } from './load';
import { signedPost } from './requests';
import { paths, WORKER_CONFIG } from './state';

/** The `--only` name of this measurement. */
export const SHARDS_MEASUREMENT = 'shards';
const CUSTOMERS_PER_TENANT = 20;

type LoadTenant = { id: string; shard: string; key: GatewayKey; customers: string[] };
export type ShardSetup = { label: string; shards: string[]; rps: number[]; p50: number[]; p99: number[]; failed: number };
export type ShardsMeasurement = { setups: ShardSetup[]; connections: number; seconds: number };

async function must<T>(label: string, method: string, path: string, options: Parameters<typeof apiCall>[2]): Promise<T> {
  const res = await apiCall(method, path, options);
  const data = dataOf<T>(res);
  if (data === undefined) throw new Error(`shards: ${label} answered ${res.status} ${res.text.slice(0, 300)}`);
  return data;
}

/** The directory's placement of the tenants, read from the local directory database. */
function placements(): Map<string, string> {
  const out = execFileSync('npx', ['wrangler', 'd1', 'execute', 'DB', '--local', '--persist-to', paths.workerPersist, '-c', WORKER_CONFIG, '--json', '--command', 'SELECT id, shard FROM tenants'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [result] = JSON.parse(out) as { results: { id: string; shard: string }[] }[];
  return new Map((result?.results ?? []).map((row) => [row.id, row.shard]));
}

async function loadTenant(token: string, run: string, index: number): Promise<Omit<LoadTenant, 'shard'>> {
  const slug = `bench-shards-${run}-${index}`;
  const tenant = await must<{ id: string }>('tenant', 'POST', '/tenants', { token, body: { name: slug, slug } });
  const created = await must<{ key_id: string; secret: string }>('API key', 'POST', `/tenant/${tenant.id}/api-keys`, { token, body: { name: 'shards load' } });
  const key = { keyId: created.key_id, secret: created.secret };
  const customers: string[] = [];
  for (let i = 0; i < CUSTOMERS_PER_TENANT; i += 1) {
    const body = { external_id: `load-${i}` };
    customers.push((await must<{ id: string }>('customer', 'POST', '/gateway/customers', { gatewayKey: key, idempotencyKey: `${slug}-${i}`, body })).id);
  }
  return { id: tenant.id, key, customers };
}

/** Earns taking turns between the tenants (and over each one's customers). */
function earns(tenants: readonly LoadTenant[]) {
  let sent = 0;
  return () => {
    const tenant = tenants[sent % tenants.length]!;
    const customer = tenant.customers[Math.floor(sent / tenants.length) % tenant.customers.length]!;
    sent += 1;
    return signedPost(tenant.key, '/api/v1/gateway/xp', { user_id: customer, type: 'xp_earn', amount: '1', metadata: { order_id: crypto.randomUUID() } });
  };
}

export async function measureShards(input: { baseUrl: string; token: string; rounds: number; connections: number; seconds: number; log: (message: string) => void }): Promise<ShardsMeasurement> {
  process.env.LOYALTY_URL = input.baseUrl; // scripts/lib/api-client.ts sends there: the Worker now running
  const run = Date.now().toString(36);
  const made = [await loadTenant(input.token, run, 1), await loadTenant(input.token, run, 2), await loadTenant(input.token, run, 3)];
  const placed = placements();
  const tenants = made.map((tenant) => ({ ...tenant, shard: placed.get(tenant.id) ?? '?' }));
  const [first, second, third] = tenants as [LoadTenant, LoadTenant, LoadTenant];
  if (first.shard === second.shard || first.shard !== third.shard) throw new Error(`shards: placement put the three tenants on ${tenants.map((t) => t.shard).join(', ')}, not two on one shard and one on the other`);
  const setups: (ShardSetup & { pair: LoadTenant[] })[] = [
    { label: 'two tenants on two shards', pair: [first, second], shards: [first.shard, second.shard], rps: [], p50: [], p99: [], failed: 0 },
    { label: 'two tenants on one shard', pair: [first, third], shards: [first.shard, third.shard], rps: [], p50: [], p99: [], failed: 0 },
  ];
  for (let round = 0; round < Math.max(1, input.rounds); round += 1) {
    for (const setup of round % 2 === 0 ? setups : [...setups].reverse()) {
      const result = await drive({ baseUrl: input.baseUrl, connections: input.connections, seconds: input.seconds, next: earns(setup.pair) });
      setup.rps.push(result.rps);
      setup.p50.push(result.p50);
      setup.p99.push(result.p99);
      setup.failed += Object.entries(result.statuses).filter(([status]) => !status.startsWith('2')).reduce((sum, [, n]) => sum + n, 0) + result.errors;
      input.log(`shards: ${setup.label} (${setup.shards.join(' + ')}): ${result.rps.toFixed(0)} earns/s, p50 ${result.p50} ms`);
    }
  }
  return { setups: setups.map(({ pair: _pair, ...setup }) => setup), connections: input.connections, seconds: input.seconds };
}

/** The report's lines: each setup's median earns per second and latency, and the ratio. */
export function shardsLines(measured: ShardsMeasurement): string[] {
  const [two, one] = measured.setups;
  const lines = [
    `${measured.connections} connections, ${measured.seconds} s per setup per round, medians; \`POST /gateway/xp\` taking turns between the two tenants.`,
    '',
    '| setup | shards | earns/s | p50 ms | p99 ms | non-2xx |',
    '|---|---|---|---|---|---|',
    ...measured.setups.map((setup) => `| ${setup.label} | ${setup.shards.join(' + ')} | ${median(setup.rps).toFixed(0)} | ${median(setup.p50)} | ${median(setup.p99)} | ${setup.failed} |`),
  ];
  if (two && one) lines.push('', `Two shards against one: ${(median(two.rps) / median(one.rps)).toFixed(2)}x the writes per second.`);
  return lines;
}
