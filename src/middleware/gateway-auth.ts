import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { decryptSecret } from '../auth/secret-box';
import { signingString, verifyHmacHex } from '../auth/signature';
import { createDatabase } from '../db/client';
import { apiKeys } from '../db/schema';
import { cacheApiKey, getCachedApiKey, loadApiKeyForCache, type CachedApiKey } from '../data/api-key-cache';
import { GuardedD1 } from '../data/guarded-d1';
import { effectiveStatus } from '../domain/api-keys';
import type { GatewayEnv } from '../env';
import { ApiError } from '../lib/errors';
import { isoNow, unixSeconds } from '../lib/time';

export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;
/** last_used_at is written at most this often per key and isolate (in the background). */
const LAST_USED_THROTTLE_MS = 60_000;
const lastUsedWrites = new Map<string, number>();

function deny(message: string): never {
  throw new ApiError('AUTH_INVALID_CREDENTIALS', message);
}

/** Path and query exactly as sent, from `/api/v1` on. */
function signedUrl(rawUrl: string): string {
  const afterScheme = rawUrl.indexOf('://');
  const pathStart = rawUrl.indexOf('/', afterScheme < 0 ? 0 : afterScheme + 3);
  return pathStart < 0 ? '/' : rawUrl.slice(pathStart);
}

/** The re-serialization of the parsed JSON body for writes, '' otherwise (spec rule 2). */
async function signedBody(c: Context<GatewayEnv>): Promise<string> {
  if (!['POST', 'PUT', 'PATCH'].includes(c.req.method)) return '';
  const text = await c.req.text();
  if (text.trim() === '') return '';
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    throw new ApiError('MALFORMED_REQUEST', 'The body is not valid JSON');
  }
}

function checkTimestamp(value: string, toleranceSeconds: number): void {
  if (!/^\d{1,12}$/.test(value)) deny('Timestamp is not Unix seconds');
  const skew = Math.abs(unixSeconds() - Number(value));
  if (skew > toleranceSeconds) deny('Timestamp is not current');
}

function guardFor(d1: D1Database, apiKeyId: string) {
  return {
    statement: d1
      .prepare(
        `INSERT INTO api_key_guard (key_id) SELECT ?1 WHERE NOT EXISTS (
           SELECT 1 FROM api_keys WHERE id = ?1 AND status = 'active' AND (expires_at IS NULL OR expires_at > ?2))`,
      )
      .bind(apiKeyId, isoNow()),
    rejection: (error: unknown) =>
      String(error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : error).includes('api_key_not_active')
        ? new ApiError('AUTH_INVALID_CREDENTIALS', 'API key is revoked or expired')
        : undefined,
  };
}

function touchLastUsed(c: Context<GatewayEnv>, key: CachedApiKey): void {
  const last = lastUsedWrites.get(key.id) ?? 0;
  if (Date.now() - last < LAST_USED_THROTTLE_MS) return;
  lastUsedWrites.set(key.id, Date.now());
  const write = createDatabase(c.env.DB).update(apiKeys).set({ lastUsedAt: isoNow() }).where(eq(apiKeys.id, key.id));
  c.executionCtx.waitUntil(write.then(() => undefined, () => undefined));
}

/**
 * Gateway authentication (spec: Authentication). Checks, in order: headers present, timestamp
 * current (before any secret is touched), key known and not revoked or expired, HMAC of
 * `timestamp + METHOD + url + body`. Round trips: 0 or 1 KV read (isolate cache first); D1 is
 * read only on a KV miss. Otherwise the key's status is confirmed by a guard batched into the
 * request's own first D1 round trip (data/guarded-d1.ts), so revocation holds for the next request.
 */
export function gatewayAuth() {
  return createMiddleware<GatewayEnv>(async function gatewayAuth(c, next) {
    const keyId = c.req.header('x-tenant-key');
    const timestamp = c.req.header('x-tenant-timestamp');
    const signature = c.req.header('x-tenant-signature');
    if (!keyId) deny('Missing X-Tenant-Key header');
    if (!timestamp) deny('Missing X-Tenant-Timestamp header');
    if (!signature) deny('Missing X-Tenant-Signature header');
    const tolerance = Number(c.env.SIGNATURE_TOLERANCE_SECONDS ?? DEFAULT_SIGNATURE_TOLERANCE_SECONDS);
    checkTimestamp(timestamp, tolerance);
    const body = await signedBody(c);

    let key = await getCachedApiKey(c.env.KV, keyId);
    const confirmedByD1 = !key;
    if (!key) {
      key = await loadApiKeyForCache(c.get('db'), keyId);
      if (!key) deny('Unknown API key');
      c.executionCtx.waitUntil(cacheApiKey(c.env.KV, key));
    }
    const status = effectiveStatus(key, isoNow());
    if (status !== 'active') deny(`API key is ${status}`);

    const secret = await decryptSecret(c.env.API_KEY_ENCRYPTION_KEY, key.secretCiphertext);
    const message = signingString({ timestamp, method: c.req.method.toUpperCase(), url: signedUrl(c.req.url), body });
    if (!(await verifyHmacHex(secret, message, signature))) deny('Signature mismatch');

    c.set('gatewayAuth', { tenantId: key.tenantId, apiKeyId: key.id, keyId: key.keyId });
    touchLastUsed(c, key);
    if (confirmedByD1) return next();

    const guarded = new GuardedD1(c.env.DB, guardFor(c.env.DB, key.id));
    c.set('db', createDatabase(guarded.binding));
    await next();
    await guarded.confirm();
  });
}
