/**
 * One request of a route, as both drivers send it (autocannon under load, fetch one at a time), and
 * how it is authenticated: gateway requests signed per docs/GATEWAY-AUTH.md with a fresh timestamp
 * each, portal requests with a bearer token. autocannon asks for requests synchronously, so the
 * HMAC is node:crypto's; the signing string and canonical url are src/auth/signature.ts's own.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { canonicalSignedUrl, signingString } from '../../src/auth/signature';
import type { GatewayKey } from '../../scripts/lib/api-client';

export type BenchRequest = { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string };

/** The three gateway headers (the same recipe as src/auth/signature.ts's signRequest, synchronously). */
export function signedHeaders(key: GatewayKey, method: string, path: string, body = ''): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const message = signingString({ timestamp, method, url: canonicalSignedUrl(path), body });
  return {
    'x-tenant-key': key.keyId,
    'x-tenant-timestamp': timestamp,
    'x-tenant-signature': createHmac('sha256', key.secret).update(message).digest('hex'),
  };
}

export function signedGet(key: GatewayKey, path: string): BenchRequest {
  return { method: 'GET', path, headers: { accept: 'application/json', ...signedHeaders(key, 'GET', path) } };
}

/**
 * A signed write with its own X-Idempotency-Key. A write signature is single-use and does not cover
 * the idempotency key, so callers make every body (or the second it is signed in) unique.
 */
export function signedPost(key: GatewayKey, path: string, payload: unknown): BenchRequest {
  const body = JSON.stringify(payload);
  return {
    method: 'POST',
    path,
    headers: { accept: 'application/json', 'content-type': 'application/json', 'x-idempotency-key': `bench-${randomUUID()}`, ...signedHeaders(key, 'POST', path, body) },
    body,
  };
}

export function portalGet(token: string, path: string): BenchRequest {
  return { method: 'GET', path, headers: { accept: 'application/json', authorization: `Bearer ${token}` } };
}

export function plainGet(path: string): BenchRequest {
  return { method: 'GET', path, headers: { accept: 'application/json' } };
}

/** A random element of a non-empty list. */
export function pick<T>(items: readonly T[]): T {
  const item = items[Math.floor(Math.random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** Walks `items` round-robin: a write never reuses a customer before all the others had one. */
export function roundRobin<T>(items: readonly T[]): () => T {
  let next = Math.floor(Math.random() * items.length);
  return () => {
    const item = items[next % items.length];
    next += 1;
    if (item === undefined) throw new Error('round-robin over an empty list');
    return item;
  };
}
