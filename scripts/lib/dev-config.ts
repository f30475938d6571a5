/**
 * Checks the configuration `wrangler dev` is about to get (wrangler.toml [vars] + `.dev.vars`) with
 * the Worker's own environment schema, before anything starts, and explains each problem: the
 * values `npm run dev` generates can simply be removed from `.dev.vars`; the others name where to
 * set them. Messages name variables, never values.
 */
import { environmentSchema } from '../../src/config';
import { readWranglerVars } from './wrangler-vars';

/** Vars `npm run dev` writes into `.dev.vars` when they are missing (scripts/lib/dev-files.ts). */
const GENERATED = new Set(['AUTH_JWKS', 'API_KEY_ENCRYPTION_KEY', 'WALLET_MNEMONIC', 'RELAYER_PRIVATE_KEY', 'CHAINS', 'CONFIRMATIONS', 'CMS_OIDC_ISSUER', 'CMS_OIDC_CLIENT_ID']);
/** Bindings come from wrangler.toml tables, not vars: present whenever wrangler.toml declares them. */
const BINDINGS = { DB: {}, KV: {}, SETTLEMENT_QUEUE: {}, WEBHOOK_QUEUE: {}, OPERATIONS_QUEUE: {}, FILES: {}, GATEWAY_RATE_LIMITER: {}, PORTAL_RATE_LIMITER: {}, TENANT_RATE_LIMITER: {} };

function remedy(variable: string): string {
  if (variable === 'API_KEY_ENCRYPTION_KEY') return 'delete its line from .dev.vars and run npm run dev again (a fresh key is generated; local API keys made before must be created again)';
  if (GENERATED.has(variable)) return 'delete its line from .dev.vars and run npm run dev again: a fresh local value is generated';
  if (variable in BINDINGS) return 'declare the binding in wrangler.toml';
  return 'set it in wrangler.toml [vars] (or .dev.vars for a secret); docs: README, "Configuration"';
}

/** The explanation of every problem, or nothing when the Worker would accept the configuration. */
export function explainDevConfiguration(devVars: ReadonlyMap<string, string>): string[] {
  const env = { ...readWranglerVars(), ...Object.fromEntries(devVars), ...BINDINGS };
  const parsed = environmentSchema.safeParse(env);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const variable = String(issue.path[0] ?? '');
    return `${issue.message}: ${remedy(variable)}`;
  });
}
