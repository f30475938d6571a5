/**
 * A small client for the local dev server: portal calls with a bearer token, gateway calls signed
 * with src/auth/signature.ts (the very code the Worker verifies with).
 */
import { signRequest } from '../../src/auth/signature';

export const API_PREFIX = '/api/v1';
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';

/** Where the dev server listens (override with LOYALTY_URL). */
export function baseUrl(): string {
  return (process.env.LOYALTY_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
}

/** `/gateway/tiers` or `/api/v1/gateway/tiers` -> `/api/v1/gateway/tiers`. */
export function apiPath(path: string): string {
  const withSlash = path.startsWith('/') ? path : `/${path}`;
  return withSlash.startsWith(`${API_PREFIX}/`) || withSlash === API_PREFIX ? withSlash : `${API_PREFIX}${withSlash}`;
}

export type ApiResponse = { method: string; path: string; status: number; ok: boolean; body: unknown; text: string; headers: Headers };
export type GatewayKey = { keyId: string; secret: string };
export type CallOptions = {
  token?: string;
  gatewayKey?: GatewayKey;
  /** Serialized once with JSON.stringify; that exact string is signed and sent. */
  body?: unknown;
  idempotencyKey?: string;
};

/**
 * @example const res = await apiCall('GET', '/gateway/tiers', { gatewayKey });
 */
export async function apiCall(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
  const verb = method.toUpperCase();
  const url = apiPath(path);
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.gatewayKey) Object.assign(headers, await signRequest({ ...options.gatewayKey, method: verb, url, body }));
  if (options.idempotencyKey) headers['x-idempotency-key'] = options.idempotencyKey;
  const response = await fetch(`${baseUrl()}${url}`, { method: verb, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { method: verb, path: url, status: response.status, ok: response.ok, body: parsed, text, headers: response.headers };
}

/** `data` of a success envelope, or undefined. */
export function dataOf<T>(res: ApiResponse): T | undefined {
  const body = res.body as { success?: unknown; data?: unknown } | null;
  return res.ok && body && typeof body === 'object' && body.success === true ? (body.data as T) : undefined;
}

/** `error.code` of a failure envelope, or undefined. */
export function errorCodeOf(res: ApiResponse): string | undefined {
  const body = res.body as { error?: { code?: unknown } } | null;
  return body && typeof body === 'object' && typeof body.error?.code === 'string' ? body.error.code : undefined;
}
