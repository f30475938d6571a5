import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { reserializedBody, sha256Hex } from '../auth/signature';
import { createDatabase, type Database } from '../db/client';
import type { IdempotencyRecord } from '../db/schema';
import { claimStatements, isClaimConflict, keptOutcome, releaseKey, settleWithoutClaim, type Fingerprint } from '../data/idempotency';
import { LeadingD1, preparedOn } from '../data/leading-d1';
import { completeKey, responseWithWriteOf, type IdempotentWrite, type ResponseWithWrite } from '../data/response-with-write';
import { IDEMPOTENCY_KEY_PATTERN, MAX_IDEMPOTENCY_KEY_LENGTH } from '../domain/idempotency';
import type { GatewayEnv } from '../app-env';
import { ApiError } from '../lib/errors';
import { isoNow } from '../lib/time';
import { log } from '../lib/log';
import { reasonOf } from '../lib/error-reason';

export const IDEMPOTENCY_HEADER = 'X-Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Longest path and query stored as sent with a claim; a longer one is stored as its digest. */
const MAX_PATH_LENGTH = 1024;
/**
 * How long an unfinished claim blocks its key. A request whose isolate died mid-flight would
 * otherwise lock the key for a day; a live request finishes far sooner (a few D1 round trips).
 */
const IN_FLIGHT_LEASE_MS = 60 * 1000;

const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/**
 * A request the server could not accept as written (400 malformed, 413 too large, 415 not sent as
 * JSON, 422 invalid) is not stored: the client fixes it and retries with the same key. 429 and 5xx
 * are transient and not stored either.
 */
const NOT_STORED = new Set([400, 413, 415, 422, 429]);

function isStored(status: number): boolean {
  return !NOT_STORED.has(status) && status < 500;
}

/** The body as a JSON value (re-serialized, so formatting does not matter), else as sent. */
async function canonicalBody(c: Context<GatewayEnv>): Promise<string> {
  return c.req.method.toUpperCase() === 'DELETE' ? '' : reserializedBody(await c.req.text());
}

/** Method, path and query, and a SHA-256 of all three plus the canonical body. */
async function fingerprintOf(c: Context<GatewayEnv>): Promise<Fingerprint> {
  const url = new URL(c.req.url);
  const sent = url.pathname + url.search;
  // Every gateway write URL is far shorter; a longer one carries a parameter the route will refuse
  // with a 422 naming it, so only its digest is stored with the claim.
  const path = sent.length > MAX_PATH_LENGTH ? `sha256:${await sha256Hex(sent)}` : sent;
  const method = c.req.method.toUpperCase();
  return { method, path, requestHash: await sha256Hex(`${method}\n${path}\n${await canonicalBody(c)}`) };
}

function readKey(c: Context<GatewayEnv>): string {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (key === undefined || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    const problem = key === undefined || key.length === 0 ? 'is required on gateway writes' : `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters`;
    throw new ApiError('IDEMPOTENCY_KEY_REQUIRED', `The ${IDEMPOTENCY_HEADER} header ${problem}`, { path: IDEMPOTENCY_HEADER });
  }
  return key;
}

/** Nothing of the request is kept (its claim and write were refused together); nothing about the first use is revealed. */
const SIGNATURE_REPLAYED =
  'This signature was already used with another X-Idempotency-Key: a signature of a write is single-use. Sign the request again with a fresh timestamp';

const keyInUse = () => new ApiError('IDEMPOTENCY_KEY_IN_USE', 'A request with this idempotency key is still in progress; retry later', { path: IDEMPOTENCY_HEADER });

function storedResponse(outcome: { status: number; body: string }, replayed: boolean): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (replayed) headers[REPLAYED_HEADER] = 'true';
  return new Response(outcome.body, { status: outcome.status, headers });
}

/** The answer to a request whose key another request holds: 422 reused, 409 in flight, or the stored response. */
function answerHeld(record: IdempotencyRecord, fingerprint: Fingerprint): Response {
  if (record.method !== fingerprint.method || record.path !== fingerprint.path) {
    throw new ApiError('IDEMPOTENCY_KEY_REUSED', `This idempotency key was used for ${record.method} ${record.path}`, { path: IDEMPOTENCY_HEADER });
  }
  if (record.requestHash !== fingerprint.requestHash) {
    throw new ApiError('IDEMPOTENCY_KEY_REUSED', 'This idempotency key was used with a different request body', { path: IDEMPOTENCY_HEADER });
  }
  if (record.responseStatus === null || record.responseBody === null) throw keyInUse();
  return storedResponse({ status: record.responseStatus, body: record.responseBody }, true);
}

function lineFields(c: Context<GatewayEnv>, reason: string) {
  return { request_id: c.get('requestId'), tenant_id: c.get('gatewayAuth')?.tenantId, reason };
}

/** The request holds its claim: store its outcome (unless its write already did) or release the key. */
async function finishClaimed(c: Context<GatewayEnv>, db: Database, write: IdempotentWrite): Promise<void> {
  const { status } = c.res;
  const stored = write.storedWithWrite;
  if (stored) {
    if (status === stored.status && (await c.res.clone().text()) === stored.body) return;
    // The write committed with this outcome: it is the answer, now and on every replay.
    log('error', 'response differs from the one stored with the write', lineFields(c, `${status} answered, ${stored.status} stored`));
    c.res = storedResponse(stored, false);
    return;
  }
  if (!isStored(status)) {
    // Only the claim goes: the signature stays used with this key, which may retry it.
    await releaseKey(db, write.claim);
    return;
  }
  const body = await c.res.clone().text();
  try {
    await completeKey(db, write.claim, keptOutcome(write.claim, { status, body }));
  } catch (error) {
    // The write already happened: answer it. The claim then lapses with its lease (logged).
    log('error', 'idempotency record not stored', lineFields(c, reasonOf(error)));
  }
}

/**
 * Gateway writes run at most once per `X-Idempotency-Key` (IETF draft "The Idempotency-Key HTTP
 * Header Field"; CONTRACT: Gateway), and each signature of a write is accepted with one key only:
 * re-sent with another key it is a 401 SIGNATURE_REPLAYED (docs/GATEWAY-AUTH.md, single-use
 * signatures). The signature use and the key claim lead the handler's first D1 round trip (after
 * the API key guard) and fail it whole when the key or signature is taken (LeadingD1); the outcome
 * is stored when it is final, by the write's own batch where the route can render it beforehand
 * (responseWithWrite), and replayed byte for byte for 24 h. A concurrent duplicate gets 409 and may
 * retry; the same key on another route or with another body is a 422. Runs after gatewayAuth.
 */
export function idempotency() {
  return createMiddleware<GatewayEnv>(async function idempotency(c, next) {
    if (!WRITE_METHODS.has(c.req.method.toUpperCase())) return next();
    const key = readKey(c);
    const { tenantId, signature, signatureExpiresAt } = c.get('gatewayAuth');
    const fingerprint = await fingerprintOf(c);
    const db = c.get('db');
    const claim = { tenantId, key, createdAt: isoNow() };
    const use = { signature, idempotencyKey: key, expiresAt: signatureExpiresAt };
    const statements = claimStatements(db, claim, use, fingerprint, plus(claim.createdAt, IN_FLIGHT_LEASE_MS));
    // Wraps the binding as given: a key guard (gateway-auth) leads, the claim follows it.
    const claiming = new LeadingD1(db.$client, { write: preparedOn(db.$client, statements), refusedBy: isClaimConflict, refusal: keyInUse });
    const write: IdempotentWrite = { claim };
    c.set('db', createDatabase(claiming.binding));
    c.set('idempotentWrite', write);
    await next();

    if (claiming.state === 'confirmed') return finishClaimed(c, db, write);
    // Nothing of this request reached D1 (no round trip of it succeeded): settle it as a duplicate
    // would be settled, storing its outcome if the key is free and the outcome is one to keep.
    const { status } = c.res;
    const outcome = claiming.state === 'pending' && isStored(status) ? keptOutcome(claim, { status, body: await c.res.clone().text() }) : undefined;
    const state = await settleWithoutClaim(db, claim, use, fingerprint, outcome);
    if (state.kind === 'signature-used-elsewhere') throw new ApiError('SIGNATURE_REPLAYED', SIGNATURE_REPLAYED, { path: 'X-Tenant-Signature' });
    if (state.kind === 'held') c.res = answerHeld(state.record, fingerprint);
    // Refused as taken, yet free now: its holder just finished without storing. Retry.
    else if (state.kind === 'free' && claiming.state === 'refused') throw keyInUse();
  });
}

/**
 * For a write route whose service can render its view before writing: the service stores the
 * response `c.json({success: true, data: view}, status)` with its write (data/response-with-write.ts).
 * Undefined outside a gateway write.
 */
export function responseWithWrite<View>(c: Context<GatewayEnv>, status: 200 | 201): ResponseWithWrite<View> | undefined {
  return responseWithWriteOf<View>(c.get('idempotentWrite'), status);
}
