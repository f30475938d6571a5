import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { apiKeyVerifier, forgetApiKeyVerifier } from '../auth/api-key-verifiers';
import { canonicalSignedUrl, MALFORMED_SIGNATURE, reserializedBody, SIGNATURE_FORMAT, signatureFailure } from '../auth/signature';
import { createDatabase } from '../db/client';
import { apiKeys } from '../db/schema';
import { shardNamed, shardsOf } from '../data/shards';
import { cacheApiKey, getCachedApiKey, loadApiKeyForCache, refreshCachedApiKey, type CachedApiKey } from '../data/api-key-cache';
import { LeadingD1, type Leader } from '../data/leading-d1';
import { answerBookmark, requestSession } from './bookmark';
import { effectiveStatus, KEY_ID_FORMAT } from '../domain/api-keys';
import type { GatewayEnv } from '../app-env';
import { BoundedMap } from '../lib/bounded-map';
import { ApiError } from '../lib/errors';
import { isoNow, unixSeconds } from '../lib/time';

/** More digits than any current time in seconds or milliseconds: refused before it is parsed. */
const MAX_TIMESTAMP_DIGITS = 16;
/** One message for revoked and expired, whichever cache or D1 noticed it: a retry fails the same way. */
const KEY_NOT_ACTIVE = 'API key is revoked or expired';
const MALFORMED_KEY_ID = 'X-Tenant-Key is not an API key id (key_ and 20 characters a-z, 2-7, as in the key_id shown on creation)';
/** last_used_at is written at most this often per key and isolate (in the background). */
const LAST_USED_THROTTLE_MS = 60_000;
const lastUsedWrites = new BoundedMap<string, number>(10_000);

function deny(message: string): never {
  throw new ApiError('AUTH_INVALID_CREDENTIALS', message);
}

function checkTimestamp(value: string, tolerance: number): void {
  if (!/^\d+$/.test(value)) deny('Timestamp is not a whole number of Unix seconds');
  if (value.length > MAX_TIMESTAMP_DIGITS) deny('Timestamp is not current');
  const now = unixSeconds();
  const seconds = Number(value);
  if (Math.abs(now - seconds) <= tolerance) return;
  if (Math.abs(now - seconds / 1000) <= tolerance) deny('Timestamp is in milliseconds, not Unix seconds');
  deny('Timestamp is not current');
}

/**
 * Spec rule 2: a write is signed over the re-serialization of its parsed JSON body, other methods
 * over ''. A body that is not JSON is taken as sent, so authentication answers first and the
 * route's 400 only reaches an authenticated caller. `raw` serves the mismatch diagnosis.
 */
async function sentBody(c: Context<GatewayEnv>): Promise<{ signed: string; raw: string }> {
  if (!['POST', 'PUT', 'PATCH'].includes(c.req.method)) return { signed: '', raw: '' };
  const raw = await c.req.text();
  return { signed: reserializedBody(raw), raw };
}

const requestShards = (c: Context<GatewayEnv>) => shardsOf(c.env, c.get('config').SHARDS);

/** The key from memory or KV, else from D1 (then `confirmed`: its status was read from D1 just now). */
async function findKey(c: Context<GatewayEnv>, keyId: string): Promise<{ key: CachedApiKey; confirmed: boolean }> {
  const cached = await getCachedApiKey(c.env.KV, keyId);
  if (cached) return { key: cached, confirmed: false };
  const key = await loadApiKeyForCache(c.get('directory'), requestShards(c), keyId);
  if (!key) deny('Unknown API key');
  c.executionCtx.waitUntil(cacheApiKey(c.env.KV, key, c.get('requestId')));
  return { key, confirmed: true };
}

/** The SQL condition "this key is active in D1 now" (?1 the key's row id, ?2 now). */
const KEY_IS_ACTIVE = `EXISTS (SELECT 1 FROM api_keys WHERE id = ?1 AND status = 'active' AND (expires_at IS NULL OR expires_at > ?2))`;

/**
 * Confirms the key against D1 in the request's first batch: a batch that may write fails (CHECK
 * api_key_not_active, everything rolled back) unless the key is active; a batch that only reads
 * carries a SELECT of the same condition, checked by LeadingD1, so a read never opens a write
 * transaction. When D1 contradicts a cached `active`, the caches are refreshed so the next request
 * fails without D1.
 */
function keyGuard(c: Context<GatewayEnv>, key: CachedApiKey, shard: D1Database): Leader {
  const now = isoNow();
  return {
    write: [shard.prepare(`INSERT INTO api_key_guard (key_id) SELECT ?1 WHERE NOT ${KEY_IS_ACTIVE}`).bind(key.id, now)],
    read: shard.prepare(`SELECT ${KEY_IS_ACTIVE} AS allowed`).bind(key.id, now),
    refusedBy: (error) => {
      const text = error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error);
      return text.includes('api_key_not_active');
    },
    refusal: () => {
      forgetApiKeyVerifier(key.keyId);
      c.executionCtx.waitUntil(refreshCachedApiKey(c.get('directory'), requestShards(c), c.env.KV, key.keyId, c.get('requestId')));
      return new ApiError('AUTH_INVALID_CREDENTIALS', KEY_NOT_ACTIVE);
    },
  };
}

function touchLastUsed(c: Context<GatewayEnv>, key: CachedApiKey): void {
  const last = lastUsedWrites.get(key.id) ?? 0;
  if (Date.now() - last < LAST_USED_THROTTLE_MS) return;
  lastUsedWrites.set(key.id, Date.now());
  const write = createDatabase(c.get('shard').d1).update(apiKeys).set({ lastUsedAt: isoNow() }).where(eq(apiKeys.id, key.id));
  c.executionCtx.waitUntil(write.then(() => undefined, () => undefined));
}

/**
 * Gateway authentication (spec: Authentication), checks in this order: the three headers; the
 * timestamp (before any key or secret is touched); the signature format; the key id's format (all
 * before any storage), then whether it is known; the HMAC of
 * `timestamp + METHOD + url + body`, a mismatch named by its cause (body, url, verb, else
 * "Signature mismatch"); the key not revoked or expired. Every failure is 401
 * AUTH_INVALID_CREDENTIALS. Round trips are counted in docs/GATEWAY-AUTH.md: a cached key costs
 * no D1 round trip of its own, its status rides in the request's first D1 batch (LeadingD1).
 */
export function gatewayAuth() {
  return createMiddleware<GatewayEnv>(async function gatewayAuth(c, next) {
    const keyId = c.req.header('x-tenant-key');
    const timestamp = c.req.header('x-tenant-timestamp');
    const signature = c.req.header('x-tenant-signature');
    if (!keyId) deny('Missing X-Tenant-Key header');
    if (!timestamp) deny('Missing X-Tenant-Timestamp header');
    if (!signature) deny('Missing X-Tenant-Signature header');
    // Validated with the whole environment (src/config.ts): a malformed setting is a 503, never a wider window.
    const tolerance = c.get('config').SIGNATURE_TOLERANCE_SECONDS;
    checkTimestamp(timestamp, tolerance);
    if (!SIGNATURE_FORMAT.test(signature)) deny(MALFORMED_SIGNATURE);
    // Bounded and well-formed before it becomes a KV key or a D1 parameter (a long one broke the KV key).
    if (!KEY_ID_FORMAT.test(keyId)) deny(MALFORMED_KEY_ID);
    const body = await sentBody(c);

    const { key, confirmed } = await findKey(c, keyId);
    const verifier = await apiKeyVerifier(c.get('config').API_KEY_ENCRYPTION_KEY, key.keyId, key.secretCiphertext);
    const parts = { timestamp, method: c.req.method.toUpperCase(), url: canonicalSignedUrl(c.req.url), body: body.signed };
    const failure = await signatureFailure(verifier, parts, signature, body.raw);
    if (failure) deny(failure);
    if (effectiveStatus(key, isoNow()) !== 'active') {
      forgetApiKeyVerifier(key.keyId);
      deny(KEY_NOT_ACTIVE);
    }

    // The first instant the timestamp check refuses this signature: its use need not be kept past it.
    const signatureExpiresAt = new Date((Number(timestamp) + tolerance + 1) * 1000).toISOString();
    c.set('gatewayAuth', { tenantId: key.tenantId, apiKeyId: key.id, keyId: key.keyId, signature, signatureExpiresAt });
    const shard = shardNamed(requestShards(c), key.shard);
    c.set('shard', shard);
    const session = requestSession(c, shard, 'gateway');
    if (confirmed) {
      c.set('db', createDatabase(session.binding));
      await next();
      answerBookmark(c, session.bookmark());
      touchLastUsed(c, key);
      return;
    }
    const guarded = new LeadingD1(session.binding, keyGuard(c, key, session.binding));
    c.set('db', createDatabase(guarded.binding));
    await next();
    // A request that made no D1 call of its own (or whose handler swallowed a failure) is
    // confirmed here; a rejection replaces whatever the handler answered with the 401.
    await guarded.confirm();
    answerBookmark(c, session.bookmark());
    touchLastUsed(c, key);
  });
}
