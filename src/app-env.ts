import type { Config } from './config';
import type { IdempotentWrite } from './data/response-with-write';
import type { Database } from './db/client';
import type { Shard } from './data/shards';
import type { Account, DirectoryTenant, Role } from './db/schema';
import type { Bindings } from './env';
import type { ServiceContext } from './services/context';

/**
 * The Hono environments of the app's requests: the bindings (src/env.ts) plus what the middleware
 * puts on the context. Above config, data and services, below the middleware that sets these variables.
 */
type BaseVariables = {
  /** The directory database (src/db/schema/directory.ts): accounts, tenants and their shards, memberships. */
  directory: Database;
  requestId: string;
  /** The validated environment (src/config.ts); every route has it but the GETs of `/info`, the OpenAPI document (`/openapi.json`) and the API reference (`/docs`, `/docs/*`), which answer without (src/app.ts, `requireConfig`). */
  config: Config;
};

export type AppEnv = { Bindings: Bindings; Variables: BaseVariables };

/** The signed-in CMS person, known on every portal route after authentication. */
export type AccountEnv = { Bindings: Bindings; Variables: BaseVariables & { account: Account } };

/**
 * A tenant's surface: its shard and the shard's client as the authentication left it (a key guard
 * or member check may lead its first round trip), then the services' context of the request
 * (middleware/services.ts), the surface's last middleware.
 */
type ServiceVariables = { shard: Shard; db: Database; services: ServiceContext };

export type PortalAuth = { account: Account; tenant: DirectoryTenant; role: Role };
/** Routes under /tenant/{tenantId}: the caller is a member of that tenant. */
export type PortalEnv = {
  Bindings: Bindings;
  Variables: BaseVariables & ServiceVariables & { account: Account; portalAuth: PortalAuth };
};

/** The verified API key and the tenant it belongs to. */
export type GatewayAuth = {
  tenantId: string;
  apiKeyId: string;
  keyId: string;
  /** The request's verified signature (single-use on writes) and when the timestamp check stops accepting it. */
  signature: string;
  signatureExpiresAt: string;
};
/** Gateway routes: the tenant comes from the verified API key. */
export type GatewayEnv = {
  Bindings: Bindings;
  /** `idempotentWrite`: set by the idempotency middleware on writes (its claim, for responseWithWrite). */
  Variables: BaseVariables & ServiceVariables & { gatewayAuth: GatewayAuth; idempotentWrite?: IdempotentWrite };
};
