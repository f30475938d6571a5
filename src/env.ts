import type { Database } from './db/client';
import type { Account, Role, Tenant } from './db/schema';

/** Worker bindings and vars (wrangler.toml, .dev.vars, secrets). */
export type Bindings = {
  DB: D1Database;
  KV: KVNamespace;
  ENVIRONMENT?: string;
  AUTH_ISSUER: string;
  AUTH_AUDIENCE: string;
  AUTH_JWKS_URL?: string;
  AUTH_JWKS?: string;
  API_KEY_ENCRYPTION_KEY: string;
  SIGNATURE_TOLERANCE_SECONDS?: string;
  TENANT_SIGNUP?: string;
  WALLET_MNEMONIC?: string;
};

type BaseVariables = {
  db: Database;
  requestId: string;
};

export type AppEnv = { Bindings: Bindings; Variables: BaseVariables };

/** The signed-in CMS person, known on every portal route after authentication. */
export type AccountEnv = { Bindings: Bindings; Variables: BaseVariables & { account: Account } };

export type PortalAuth = { account: Account; tenant: Tenant; role: Role };
/** Routes under /tenant/{tenantId}: the caller is a member of that tenant. */
export type PortalEnv = {
  Bindings: Bindings;
  Variables: BaseVariables & { account: Account; portalAuth: PortalAuth };
};

/** The verified API key and the tenant it belongs to. */
export type GatewayAuth = { tenantId: string; apiKeyId: string; keyId: string };
/** Gateway routes: the tenant comes from the verified API key. */
export type GatewayEnv = {
  Bindings: Bindings;
  Variables: BaseVariables & { gatewayAuth: GatewayAuth };
};
