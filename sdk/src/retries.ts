/**
 * Sending with retries. Only an idempotent call is sent again after a transient failure: GET and
 * HEAD, and a gateway write, which always carries an X-Idempotency-Key (the server answers a repeat
 * of a finished write from its stored response, refuses one still in flight with 409
 * IDEMPOTENCY_KEY_IN_USE and stores no 429 or 5xx, so a repeat runs at most once). Portal writes
 * take no idempotency key and are never repeated.
 */

export type RetryOptions = {
  /** Attempts after the first (default 3; 0 disables retries). */
  maxRetries?: number;
  /** First backoff delay in ms, doubled per retry, with jitter (default 200). */
  baseDelayMs?: number;
  /** Longest wait in ms: a `Retry-After` beyond it is not waited for, the response is returned (default 60 000). */
  maxDelayMs?: number;
  /** How to wait (default setTimeout); tests pass their own. */
  sleep?: (ms: number) => Promise<void>;
};

export type RetryPolicy = Required<RetryOptions>;

export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  return {
    maxRetries: options.maxRetries ?? 3,
    baseDelayMs: options.baseDelayMs ?? 200,
    maxDelayMs: options.maxDelayMs ?? 60_000,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
  };
}

/** 5xx worth another try: 501 (not implemented) and 505 will not change. */
const TRANSIENT_5XX = new Set([500, 502, 503, 504]);

/** The `error.code` of our failure envelope, if the response has one. */
export async function errorCode(response: Response): Promise<string | undefined> {
  try {
    const body: unknown = await response.clone().json();
    if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
    const { error } = body;
    if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
    return typeof error.code === 'string' ? error.code : undefined;
  } catch {
    return undefined;
  }
}

/** `Retry-After` in ms (delta-seconds or an HTTP date), if present and readable. */
export function retryAfterMs(response: Response, now = Date.now()): number | undefined {
  const value = response.headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function backoffMs(policy: RetryPolicy, retry: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  // Half fixed, half random: clients failing together do not retry together.
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

async function isTransient(response: Response): Promise<boolean> {
  if (response.status === 429 || TRANSIENT_5XX.has(response.status)) return true;
  return response.status === 409 && (await errorCode(response)) === 'IDEMPOTENCY_KEY_IN_USE';
}

export type Attempts = {
  /** Builds the request of attempt n (0-based): signed afresh, with the same idempotency key. */
  prepare: (attempt: number) => Promise<Request>;
  send: (request: Request) => Promise<Response>;
  idempotent: boolean;
  /** A response after which the request is sent again at once whatever its idempotency, because nothing of it ran. */
  resendAtOnce?: (response: Response) => Promise<boolean>;
};

/** Sends until a response is final or the retries are used up; the last response is the answer. */
export async function sendWithRetries(attempts: Attempts, policy: RetryPolicy): Promise<Response> {
  for (let attempt = 0; ; attempt += 1) {
    const request = await attempts.prepare(attempt);
    const retriesLeft = attempt < policy.maxRetries;
    let response: Response;
    try {
      response = await attempts.send(request);
    } catch (error) {
      // A network failure: the request may or may not have run, so only an idempotent call is sent again.
      if (!attempts.idempotent || !retriesLeft) throw error;
      await policy.sleep(backoffMs(policy, attempt));
      continue;
    }
    if (!retriesLeft) return response;
    let delay: number | undefined;
    if (attempts.resendAtOnce && (await attempts.resendAtOnce(response))) delay = 0;
    else if (attempts.idempotent && (await isTransient(response))) delay = retryAfterMs(response) ?? backoffMs(policy, attempt);
    if (delay === undefined || delay > policy.maxDelayMs) return response;
    await response.body?.cancel();
    if (delay > 0) await policy.sleep(delay);
  }
}
