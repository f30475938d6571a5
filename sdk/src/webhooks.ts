/**
 * Verifying a webhook request (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) with the `standardwebhooks` package's own verifier, then returning the event.
 * @example
 * const event = verifyWebhook(await request.text(), request.headers, env.LOYALTY_WEBHOOK_SECRET);
 * if (event.type === 'xp.transaction.completed') ...
 */
import { Webhook, WebhookVerificationError as StandardWebhooksError } from 'standardwebhooks';
import type { components } from './schema';

/**
 * A webhook request that did not verify. The SDK's own class, not the `standardwebhooks`
 * package's: its type declarations need Node's (`Buffer`), so re-exporting it would make every
 * TypeScript project without @types/node fail to compile against the SDK. `cause` holds the
 * package's error where it raised one.
 */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/** A webhook body, typed per event `type` from the document's `WebhookEvent` schema (its `webhooks` section). */
export type WebhookEvent = components['schemas']['WebhookEvent'];
export type WebhookEventType = WebhookEvent['type'];

const HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

function headerRecord(headers: Headers | Record<string, string | undefined>): Record<string, string> {
  const get = (name: string) =>
    headers instanceof Headers ? headers.get(name) : Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  const record: Record<string, string> = {};
  for (const name of HEADERS) {
    const value = get(name);
    if (value !== undefined && value !== null) record[name] = value;
  }
  return record;
}

function isEvent(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const fields: Record<string, unknown> = { ...value };
  return typeof fields.id === 'string' && typeof fields.type === 'string' && typeof fields.data === 'object' && fields.data !== null;
}

/**
 * The verified event of a webhook request, or a WebhookVerificationError (missing headers, a
 * timestamp more than 5 minutes off, no matching signature). `payload` is the raw body text as
 * received: verify before parsing, never a re-serialized object. `secret` is the endpoint's
 * `whsec_...`; pass several while you switch secrets (each is tried). A header carrying several
 * `v1,...` signatures (the server signs with the old and the new secret for 24 h after a rotation)
 * verifies when any of them matches.
 */
export function verifyWebhook(payload: string, headers: Headers | Record<string, string | undefined>, secret: string | readonly string[]): WebhookEvent {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  const received = headerRecord(headers);
  let failure: unknown = new WebhookVerificationError('No webhook secret given');
  for (const candidate of secrets) {
    try {
      const event: unknown = new Webhook(candidate).verify(payload, received);
      if (!isEvent(event)) throw new WebhookVerificationError('The payload is not a webhook event');
      // Checked above for its envelope; the signature vouches that the server wrote the rest.
      return event as WebhookEvent;
    } catch (error) {
      failure = error instanceof StandardWebhooksError ? new WebhookVerificationError(error.message, { cause: error }) : error;
    }
  }
  throw failure;
}
