import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test';
import worker from '../../src/index';
import type { Bindings } from '../../src/env';
import { expect } from 'vitest';
import type { z } from '@hono/zod-openapi';
import { envelopeOf, errorEnvelopeSchema } from '../../src/lib/envelope';
import type { ErrorCode } from '../../src/lib/errors';

export const BASE = 'https://loyalty.test';

export type JsonResponse = { status: number; headers: Headers; body: unknown; text: string };

/** Sends a request through the whole Worker (SELF), returning the parsed JSON body. */
export async function call(method: string, path: string, init: { headers?: Record<string, string>; body?: unknown; rawBody?: string } = {}): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  return jsonResponse(await SELF.fetch(`${BASE}${path}`, { method, headers, body }));
}

async function jsonResponse(response: Response): Promise<JsonResponse> {
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/**
 * Sends a request to the Worker's own fetch handler with `runEnv` (as if deployed with those
 * bindings), then waits for its background work. Also for long runs: in
 * @cloudflare/vitest-pool-workers 0.15.1 every SELF request of a file costs more than the one before
 * and a few thousand overflow the stack, while this stays under a millisecond.
 */
export async function callWorker(request: Request, runEnv: Bindings = env): Promise<JsonResponse> {
  const ctx = createExecutionContext();
  const response = await jsonResponse(await worker.fetch(request, runEnv, ctx));
  await waitOnExecutionContext(ctx);
  return response;
}

/**
 * Asserts status and that the body is exactly the success envelope of `data`: the same strict
 * `envelopeOf(schema)` the OpenAPI document describes, so no unlisted field passes at any level.
 */
export function expectOk<T extends z.ZodType>(res: JsonResponse, status: number, data: T): z.infer<T> {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type'), res.text).toMatch(/^application\/json/);
  const parsed = envelopeOf(data).safeParse(res.body);
  expect(parsed.success ? null : parsed.error.issues, res.text).toBeNull();
  return (parsed.data as { data: z.infer<T> }).data;
}

/**
 * Asserts the failure envelope: status, code, `data: null`, at least one {path, message}, and
 * `error.request_id` equal to the `X-Request-Id` header (a replay's body is the first answer's,
 * its id included, while the header names the replay: docs/decisions/0010-idempotency-keys.md).
 */
export function expectError(res: JsonResponse, status: number, code: ErrorCode, message?: string | RegExp) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type'), res.text).toMatch(/^application\/json/);
  const parsed = errorEnvelopeSchema.safeParse(res.body);
  expect(parsed.success ? null : parsed.error.issues, res.text).toBeNull();
  const body = parsed.data!;
  expect(body.error.code, res.text).toBe(code);
  expect(body.message, res.text).toBe(body.error.message);
  expect(body.error.request_id, res.text).not.toBe('');
  if (res.headers.get('idempotent-replayed') !== 'true') expect(body.error.request_id, res.text).toBe(res.headers.get('x-request-id'));
  if (message !== undefined) expect(body.error.message, res.text).toMatch(message);
  return body;
}
