import { SELF } from 'cloudflare:test';
import { createGatewayClient, createPortalClient, type RetryOptions } from '../../sdk/src';
import { BASE } from '../support/http';
import type { TestApiKey } from '../support/world';

export const BASE_URL = `${BASE}/api/v1`;

/** Every request the SDK sent, as the Worker received it. */
export type Sent = { method: string; url: string; headers: Headers; body: string };

/**
 * The SDK's fetch: records each request, lets `inject` answer instead of the Worker (a status the
 * test wants the SDK to see), else passes it through to the Worker (SELF).
 */
export function workerFetch(inject: (sent: Sent, index: number) => Response | undefined = () => undefined) {
  const sent: Sent[] = [];
  const fetch = async (request: Request) => {
    const record = { method: request.method, url: request.url, headers: new Headers(request.headers), body: await request.clone().text() };
    sent.push(record);
    return inject(record, sent.length - 1) ?? SELF.fetch(request);
  };
  return { fetch, sent };
}

/** Records the delays the SDK asked to wait, and waits for none of them. */
export function recordedSleep() {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}

export function gatewaySdk(key: TestApiKey, options: { inject?: Parameters<typeof workerFetch>[0]; retry?: RetryOptions; now?: () => number } = {}) {
  const { fetch, sent } = workerFetch(options.inject);
  const { delays, sleep } = recordedSleep();
  const gateway = createGatewayClient({ baseUrl: BASE_URL, keyId: key.keyId, secret: key.secret, fetch, now: options.now, retry: { sleep, ...options.retry } });
  return { gateway, sent, delays };
}

export function portalSdk(token: string, options: { inject?: Parameters<typeof workerFetch>[0]; retry?: RetryOptions } = {}) {
  const { fetch, sent } = workerFetch(options.inject);
  const { delays, sleep } = recordedSleep();
  const portal = createPortalClient({ baseUrl: BASE_URL, token, fetch, retry: { sleep, ...options.retry } });
  return { portal, sent, delays };
}

/** A response in our failure envelope, as the Worker would answer it. */
export function errorResponse(status: number, code: string, headers: Record<string, string> = {}): Response {
  const message = `injected ${code}`;
  const requestId = 'req_injected';
  const body = { success: false, data: null, errors: [{ path: '', message }], message, error: { code, message, request_id: requestId } };
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...headers } });
}
