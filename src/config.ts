import { english } from 'viem/accounts';
import { z } from 'zod';
import { ChainConfigError, parseChains } from './chain/chains';
import { RelayerConfigError, relayerAccount } from './chain/relayer';
import { settlementFields } from './chain/settings';
import { parseShardNames, SHARD_NAME, type ShardName } from './domain/shards';
import { envRateLimit, envText as text, envWholeNumber } from './lib/env-fields';
import { log } from './lib/log';

/** The whole environment of the Worker, validated by one schema (CONTRACT: Configuration errors). */

const BIP39_WORD_COUNTS = new Set([12, 15, 18, 21, 24]);
const BIP39_WORDS = new Set(english);

const required = (name: string) => text.refine((value) => value !== undefined, `${name} is not set`).transform((value) => value ?? '');

const binding = (name: string, kind: string) =>
  z.custom<object>((value) => typeof value === 'object' && value !== null, `${name} is not bound (${kind} binding in wrangler.toml)`);

function isJwks(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && Array.isArray((parsed as { keys?: unknown }).keys);
  } catch {
    return false;
  }
}

function isAes256Key(value: string): boolean {
  try {
    return /^[A-Za-z0-9+/]+={0,2}$/.test(value) && atob(value).length === 32;
  } catch {
    return false;
  }
}

function isMnemonic(value: string): boolean {
  const words = value.normalize('NFKD').split(/\s+/);
  return BIP39_WORD_COUNTS.has(words.length) && words.every((word) => BIP39_WORDS.has(word));
}

/** Runs one of the chain module's own parsers, so the schema and settlement agree on what is valid. */
function chainParser<T>(parse: (value: string) => T) {
  return (value: string | undefined, ctx: z.RefinementCtx) => {
    if (value === undefined) return;
    try {
      parse(value);
    } catch (error) {
      if (!(error instanceof ChainConfigError || error instanceof RelayerConfigError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message });
    }
  };
}

const fields = {
    DB: binding('DB', 'D1'),
    SHARDS: text.transform((value, ctx): ShardName[] => {
      const parsed = parseShardNames(value);
      if ('names' in parsed) return parsed.names;
      ctx.addIssue({ code: 'custom', message: parsed.problem });
      return z.NEVER;
    }),
    PINNED_SHARD: text
      .refine((value) => value === undefined || SHARD_NAME.test(value), 'PINNED_SHARD is not a shard binding name (SHARD_<number>)')
      .transform((value) => value as ShardName | undefined),
    KV: binding('KV', 'KV namespace'),
    SETTLEMENT_QUEUE: binding('SETTLEMENT_QUEUE', 'queue producer'),
    WEBHOOK_QUEUE: binding('WEBHOOK_QUEUE', 'queue producer'),
    OPERATIONS_QUEUE: binding('OPERATIONS_QUEUE', 'queue producer'),
    FILES: binding('FILES', 'R2 bucket'),
    GATEWAY_RATE_LIMITER: binding('GATEWAY_RATE_LIMITER', 'rate limiting ([[ratelimits]])'),
    PORTAL_RATE_LIMITER: binding('PORTAL_RATE_LIMITER', 'rate limiting ([[ratelimits]])'),
    TENANT_RATE_LIMITER: binding('TENANT_RATE_LIMITER', 'rate limiting ([[ratelimits]])'),
    GATEWAY_RATE_LIMIT: envRateLimit('GATEWAY_RATE_LIMIT', 'GATEWAY_RATE_LIMITER'),
    PORTAL_RATE_LIMIT: envRateLimit('PORTAL_RATE_LIMIT', 'PORTAL_RATE_LIMITER'),
    TENANT_RATE_LIMIT: envRateLimit('TENANT_RATE_LIMIT', 'TENANT_RATE_LIMITER'),
    ENVIRONMENT: text,
    AUTH_ISSUER: required('AUTH_ISSUER'),
    AUTH_AUDIENCE: required('AUTH_AUDIENCE'),
    AUTH_JWKS_URL: text.refine((value) => value === undefined || /^https?:\/\/\S+$/.test(value), 'AUTH_JWKS_URL is not an http(s) URL'),
    AUTH_JWKS: text.refine((value) => value === undefined || isJwks(value), 'AUTH_JWKS is not a JWKS (JSON with a "keys" array)'),
    CMS_OIDC_ISSUER: text.refine((value) => value === undefined || /^https?:\/\/\S+$/.test(value), 'CMS_OIDC_ISSUER is not an http(s) URL'),
    CMS_OIDC_CLIENT_ID: text,
    API_KEY_ENCRYPTION_KEY: required('API_KEY_ENCRYPTION_KEY').refine(
      (value) => value === '' || isAes256Key(value),
      'API_KEY_ENCRYPTION_KEY is malformed: expected 32 random bytes in base64',
    ),
    WALLET_MNEMONIC: required('WALLET_MNEMONIC').refine(
      (value) => value === '' || isMnemonic(value),
      'WALLET_MNEMONIC is malformed: expected a BIP-39 English mnemonic of 12 to 24 words',
    ),
    SIGNATURE_TOLERANCE_SECONDS: envWholeNumber('SIGNATURE_TOLERANCE_SECONDS', { min: 0, max: 3600, fallback: 300 }),
    TENANT_SIGNUP: text
      .refine((value) => value === undefined || value === 'open' || value === 'closed', 'TENANT_SIGNUP must be "open" or "closed"')
      .transform((value) => (value === 'closed' ? 'closed' : 'open')),
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: text
      .refine((value) => value === undefined || value === 'true' || value === 'false', 'WEBHOOKS_ALLOW_PRIVATE_TARGETS must be "true" or "false"')
      .transform((value) => value === 'true'),
    CHAINS: text.superRefine(chainParser(parseChains)),
    RELAYER_PRIVATE_KEY: text.superRefine(chainParser(relayerAccount)),
    ...settlementFields,
};

export const environmentSchema = z
  .object(fields)
  .superRefine((env, ctx) => {
    if (env.PINNED_SHARD !== undefined && SHARD_NAME.test(env.PINNED_SHARD) && Array.isArray(env.SHARDS) && !env.SHARDS.includes(env.PINNED_SHARD)) {
      ctx.addIssue({ code: 'custom', path: ['PINNED_SHARD'], message: `PINNED_SHARD names ${env.PINNED_SHARD}, which SHARDS does not list` });
    }
    if (env.AUTH_JWKS_URL === undefined && env.AUTH_JWKS === undefined) {
      ctx.addIssue({ code: 'custom', path: ['AUTH_JWKS_URL'], message: 'AUTH_JWKS_URL or AUTH_JWKS is not set: portal tokens cannot be verified' });
    }
    // The CMS sign-in needs both; one alone is a half-done configuration, not "sign-in off".
    if ((env.CMS_OIDC_ISSUER === undefined) !== (env.CMS_OIDC_CLIENT_ID === undefined)) {
      const [missing, present] = env.CMS_OIDC_ISSUER === undefined ? ['CMS_OIDC_ISSUER', 'CMS_OIDC_CLIENT_ID'] : ['CMS_OIDC_CLIENT_ID', 'CMS_OIDC_ISSUER'];
      ctx.addIssue({ code: 'custom', path: [missing], message: `${missing} is not set while ${present} is: the CMS sign-in needs both (or neither, to leave it off)` });
    }
  });

export type Config = z.output<typeof environmentSchema>;
/** One variable at fault; `message` starts with the variable's name. */
export type ConfigProblem = { variable: string; message: string };
export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: ConfigProblem[] };

/** The Worker's env as the schema reads it (also what scripts build from wrangler.toml and .dev.vars). */
export type EnvironmentInput = Readonly<Record<string, unknown>>;

const VARIABLES = Object.keys(fields);
const checked = new Map<string, ConfigResult>();

/** The shards SHARDS names whose D1 binding is missing, each a problem naming it. */
function unboundShards(env: EnvironmentInput, names: readonly string[]): ConfigProblem[] {
  const unbound = names.filter((name) => typeof env[name] !== 'object' || env[name] === null);
  return unbound.map((name) => ({ variable: 'SHARDS', message: `SHARDS lists ${name}, which is not bound (D1 binding in wrangler.toml)` }));
}

/** What identifies one configuration: the vars' text and which bindings are present (the shards' included). */
function fingerprintOf(env: EnvironmentInput): string {
  const shards = typeof env.SHARDS === 'string' ? env.SHARDS.split(',').map((name) => name.trim()) : [];
  return JSON.stringify([...VARIABLES, ...shards].map((name) => (typeof env[name] === 'object' ? env[name] !== null : (env[name] ?? null))));
}

/**
 * The environment checked by the schema, once per isolate and configuration (an isolate keeps one
 * environment; tests hand the Worker several). A broken configuration is logged once, by name.
 */
export function configOf(env: EnvironmentInput): ConfigResult {
  const key = fingerprintOf(env);
  const known = checked.get(key);
  if (known) return known;
  const parsed = environmentSchema.safeParse(env);
  const problems = parsed.success
    ? unboundShards(env, parsed.data.SHARDS)
    : parsed.error.issues.map((issue) => ({ variable: String(issue.path[0] ?? ''), message: issue.message }));
  const result: ConfigResult = parsed.success && problems.length === 0 ? { ok: true, config: parsed.data } : { ok: false, problems };
  if (!result.ok) log('error', 'service misconfigured', { problems: result.problems });
  checked.set(key, result);
  return result;
}
