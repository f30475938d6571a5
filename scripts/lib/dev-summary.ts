/**
 * What `npm run dev` prints once the server is up and seeded: addresses, credentials of the demo
 * tenant, what is onchain, and the commands to poke at it. Never prints a private key, the wallet
 * mnemonic or a remote RPC URL.
 */
import { isEveryMinute, scheduledUrl } from './cron-ticker';
import type { DemoState } from './dev-files';
import { describePointSettings } from './seed-points';
import { readWranglerCrons } from './wrangler-vars';

export type SummaryInput = {
  baseUrl: string;
  state: DemoState | undefined;
  /** One line per configured chain (scripts/lib/local-chain.ts). */
  chainLines: string[];
  relayerAddress?: string;
  /** The crons the ticker runs every few seconds. */
  tickedCrons: string[];
  tickSeconds: number;
  /** How to sign in to the CMS (scripts/lib/dev-sign-in.ts). */
  cmsSignIn: string;
};

function onchainLines({ state, chainLines, relayerAddress, baseUrl }: SummaryInput): string[] {
  const out = ['', ' Onchain:'];
  for (const line of chainLines) out.push(`   ${line}`);
  if (relayerAddress) out.push(`   relayer ${relayerAddress} (its key is RELAYER_PRIVATE_KEY in .dev.vars)`);
  const onchain = state?.onchain;
  if (onchain?.xpToken) out.push(`   XP token (erc20, key xp)       ${onchain.xpToken} on chain ${onchain.chainId}`);
  if (onchain?.badge) out.push(`   Badge collection (erc721)      ${onchain.badge} on chain ${onchain.chainId}`);
  if (onchain?.settledTransactionId) {
    out.push(
      `   A settled transaction with its blockchain_transaction_links:`,
      `     npm run gateway -- GET /api/v1/gateway/internal-transactions/${onchain.settledTransactionId}`,
    );
  }
  if (state?.tenant) {
    out.push(
      '   Assets and reconciliation (portal token below):',
      `     curl -H "Authorization: Bearer $TOKEN" ${baseUrl}/api/v1/tenant/${state.tenant.id}/onchain-assets`,
    );
  }
  return out;
}

/** Signed calls with the demo key on real ids of the demo tenant, ready to paste. */
function gatewayLines(state: DemoState | undefined): string[] {
  const out = [' Signed gateway calls with the demo key:', "   npm run gateway -- GET '/api/v1/gateway/customers?limit=3'"];
  const sample = state?.sample;
  if (!sample) return out;
  out.push(`   npm run gateway -- GET /api/v1/gateway/customers/${sample.customerId}`);
  if (sample.transactionId) out.push(`   npm run gateway -- GET /api/v1/gateway/internal-transactions/${sample.transactionId}`);
  out.push(`   npm run gateway -- POST /api/v1/gateway/xp --body '{"user_id":"${sample.customerId}","type":"xp_earn","amount":"50"}'`);
  out.push(`   npm run gateway -- POST /api/v1/gateway/events --body '{"user_id":"${sample.customerId}","type":"order.paid","properties":{"total":45.99}}'   (the earning rules decide the XP)`);
  return out;
}

/** The point lifecycle: the settings, the credit left pending, how it becomes spendable and where to see it. */
function pointsLines({ state, baseUrl, tickedCrons, tickSeconds }: SummaryInput): string[] {
  const points = state?.points;
  if (!points) return [];
  const out = ['', ` Point lifecycle (docs/POINTS.md): ${describePointSettings(points.settings)}, in ${points.timezone}`];
  const { credit } = points;
  const minuteCron = readWranglerCrons().find(isEveryMinute);
  if (!credit || !minuteCron || !state.tenant) return out;
  const runs = tickedCrons.includes(minuteCron)
    ? `npm run dev runs it every ${tickSeconds} s; under a plain \`wrangler dev --test-scheduled\`: curl "${scheduledUrl(baseUrl, minuteCron)}"`
    : `run it by hand: curl "${scheduledUrl(baseUrl, minuteCron)}"`;
  const path = `customers/${credit.customerId}/points`;
  out.push(
    credit.lotStatus === 'pending'
      ? `   ${credit.username}'s ${credit.amount} XP "${credit.notes}" is pending until ${credit.availableAt ?? '?'}, then spendable at the minute cron's next run (${runs})`
      : `   ${credit.username}'s ${credit.amount} XP "${credit.notes}" waited until ${credit.availableAt ?? '?'} (its lot is now ${credit.lotStatus ?? '?'}); the minute cron activates and expires lots (${runs})`,
    `   npm run gateway -- GET /api/v1/gateway/${path}   or   curl -H "Authorization: Bearer $TOKEN" ${baseUrl}/api/v1/tenant/${state.tenant.id}/${path}`,
  );
  return out;
}

function cronLines({ baseUrl, tickedCrons, tickSeconds }: SummaryInput): string[] {
  const crons = readWranglerCrons();
  const out = ['', ' Cron Triggers do not fire by themselves in wrangler dev; run one by hand:'];
  for (const cron of crons) out.push(`   curl "${scheduledUrl(baseUrl, cron)}"`);
  out.push(
    tickedCrons.length > 0
      ? `   (npm run dev already runs ${tickedCrons.map((c) => `"${c}"`).join(', ')} every ${tickSeconds} s: receipts followed, balances indexed, cohort re-evaluations applied)`
      : '   (no every-minute cron in wrangler.toml, so nothing runs them automatically)',
  );
  return out;
}

export function printSummary(input: SummaryInput): void {
  const { baseUrl, state } = input;
  const line = '─'.repeat(72);
  const out = [
    '',
    line,
    ` CMS (web console)     ${baseUrl}/   ${input.cmsSignIn}`,
    ` Loyalty API (local)   ${baseUrl}/api/v1`,
    ` OpenAPI document      ${baseUrl}/api/v1/openapi.json`,
    ` API docs (Swagger UI) ${baseUrl}/api/v1/docs`,
  ];
  if (state?.tenant) out.push(` Demo tenant           ${state.tenant.name} (${state.tenant.slug})  id ${state.tenant.id}`);
  if (state?.apiKey) {
    out.push(` Gateway API key id    ${state.apiKey.keyId}`);
    out.push(` Gateway API secret    ${state.apiKey.secret}   (kept in .dev/demo.json)`);
  }
  out.push(
    '',
    ' Portal token (the demo super_admin; any other email is a new account with no tenant):',
    `   TOKEN=$(npm run -s token -- --email ${state?.adminEmail ?? 'demo-admin@example.com'})`,
    `   curl -H "Authorization: Bearer $TOKEN" ${baseUrl}/api/v1/user/me`,
  );
  if (state?.tenant) out.push(`   curl -H "Authorization: Bearer $TOKEN" "${baseUrl}/api/v1/tenant/${state.tenant.id}/customers?limit=5"`);
  out.push(...gatewayLines(state));
  out.push(...onchainLines(input), ...pointsLines(input), ...cronLines(input));
  out.push(
    '',
    ' Ctrl+C stops the server and the local chain. Data lives in .wrangler/state and the chain in',
    ' .dev/anvil-state.json: delete both to start over (one without the other leaves them out of step).',
    line,
  );
  console.log(out.join('\n'));
}
