/**
 * Worker bindings and vars (wrangler.toml, .dev.vars, secrets) and what the queues carry: the
 * ground floor, importing nothing. The Hono request types built on them are in src/app-env.ts.
 */
export type Bindings = {
  /** The directory: accounts, tenants and their shards, memberships, API key ids, the relayer's nonces (docs/SCALING.md). */
  DB: D1Database;
  /** The tenant shards' D1 bindings, comma-separated (`SHARD_0,SHARD_1`): each tenant's data lives in one. */
  SHARDS?: string;
  /** A shard binding name: every new tenant goes there (else to the shard with the fewest tenants). */
  PINNED_SHARD?: string;
  KV: KVNamespace;
  ENVIRONMENT?: string;
  AUTH_ISSUER: string;
  AUTH_AUDIENCE: string;
  AUTH_JWKS_URL?: string;
  AUTH_JWKS?: string;
  /** The CMS's OpenID provider (http(s) URL) and its client id there: both or neither (GET /system/cms-config). */
  CMS_OIDC_ISSUER?: string;
  CMS_OIDC_CLIENT_ID?: string;
  API_KEY_ENCRYPTION_KEY: string;
  SIGNATURE_TOLERANCE_SECONDS?: string;
  TENANT_SIGNUP?: string;
  WALLET_MNEMONIC?: string;
  /** JSON `{"<chain_id>": "<rpc url>"}`: the EVM chains assets may live on (src/chain/chains.ts). */
  CHAINS?: string;
  /** Hex private key of the platform's relayer: owner of reference contracts, signer of settlements. */
  RELAYER_PRIVATE_KEY?: string;
  /** Blocks a receipt must be buried under before it is final (default 1). */
  CONFIRMATIONS?: string;
  /** Seconds a sent transaction may wait in the pool before it is re-sent with higher fees (default 120). */
  SETTLEMENT_STUCK_SECONDS?: string;
  /** Most gas one deploy / mint / burn may use (defaults 3,000,000 / 250,000 / 250,000; src/chain/settings.ts). */
  MAX_GAS_DEPLOY?: string;
  MAX_GAS_MINT?: string;
  MAX_GAS_BURN?: string;
  /** Gas the relayer may spend per tenant per UTC day (default 100,000,000). */
  TENANT_DAILY_GAS_BUDGET?: string;
  /** Platform deploys per tenant, in all (default 20). */
  TENANT_DEPLOY_LIMIT?: string;
  /** Native balance (e.g. "0.05") below which the minute cron logs the relayer as low. */
  RELAYER_MIN_BALANCE?: string;
  SETTLEMENT_QUEUE: Queue<SettlementMessage>;
  /** Carries webhook delivery ids to the webhook consumer of the same Worker. */
  WEBHOOK_QUEUE: Queue<WebhookMessage>;
  /** Carries import chunks and export jobs to the operations consumer of the same Worker (ids and numbers only). */
  OPERATIONS_QUEUE: Queue<OperationMessage>;
  /** R2: uploaded import files, their error files and exported CSVs (docs/OPERATIONS.md). */
  FILES: R2Bucket;
  /** `true` only in local development and tests: webhook endpoints on loopback/private hosts and plain http. */
  WEBHOOKS_ALLOW_PRIVATE_TARGETS?: string;
  /** wrangler.toml [assets]: the API reference's files (src/routes/docs). Checked where used, not by the config. */
  ASSETS?: Fetcher;
  /**
   * Workers Rate Limiting ([[ratelimits]]): requests per verified API key on the gateway, per account
   * on the portal, and per tenant over all its API keys on the gateway.
   */
  GATEWAY_RATE_LIMITER: RateLimit;
  PORTAL_RATE_LIMITER: RateLimit;
  TENANT_RATE_LIMITER: RateLimit;
  /** Each limiter's `simple` as `limit/period` (e.g. "600/60"): what the RateLimit headers state (src/middleware/rate-limit.ts). */
  GATEWAY_RATE_LIMIT?: string;
  PORTAL_RATE_LIMIT?: string;
  TENANT_RATE_LIMIT?: string;
};

/**
 * Every message names the shard whose rows it is about (a binding name of SHARDS), so its consumer
 * reads the right database without asking the directory. One sent before shards existed names none
 * and is about the first shard, which is the single database of that time (docs/DEPLOY.md).
 */
type OfShard = { shard: string };

/** What the settlement queue carries: ids only, never amounts or keys. */
export type SettlementMessage = { operationId: string } & OfShard;

/** What the webhook queue carries: a delivery id, never a body or a secret. */
export type WebhookMessage = { deliveryId: string } & OfShard;

/**
 * What the operations queue carries: which import's chunk of rows to apply (a chunk is a fixed
 * range of row numbers of the uploaded file), or which export to write. Never a row or a file.
 */
export type OperationMessage = ({ kind: 'import_chunk'; tenantId: string; importId: string; chunk: number } | { kind: 'export'; exportId: string }) & OfShard;
