import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../../sdk/src';

/** A `whsec_` secret as the server issues them: base64 of random bytes. */
function newSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(24))))}`;
}

/** A status change as the server sends it (the resource cut short: the signature covers whatever the body is). */
const event = {
  id: 'evt_0f3c2a9b8d7e6f5a4b3c2d1e0f9a8b7c',
  type: 'customer.status_changed',
  created_at: '2026-11-25T00:00:00.000Z',
  tenant_id: 'ten_sdk',
  data: { success: true, data: { id: 'cus_1', status: 'suspended' } },
  previous_attributes: { status: 'active' },
};

/** The headers the server sends: every secret in `secrets` signs (two during a rotation). */
function signed(payload: string, secrets: string[], at = new Date()) {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(event.id, at, payload));
  return { 'webhook-id': event.id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signatures.join(' ') };
}

describe('SDK webhook verification (standardwebhooks)', () => {
  it('returns the typed event of a request signed with the secret (Headers or a plain record)', () => {
    const secret = newSecret();
    const payload = JSON.stringify(event);
    const headers = signed(payload, [secret]);
    const verified = verifyWebhook(payload, new Headers(headers), secret);
    expect(verified).toEqual(event);
    // Typed by the document's WebhookEvent: `type` narrows to the event's own fields.
    if (verified.type !== 'customer.status_changed') throw new Error(`unexpected ${verified.type}`);
    expect(verified.previous_attributes?.status).toBe('active');
    expect(verifyWebhook(payload, { 'Webhook-Id': headers['webhook-id'], 'Webhook-Timestamp': headers['webhook-timestamp'], 'Webhook-Signature': headers['webhook-signature'] }, secret)).toEqual(event);
  });

  it('refuses a tampered body', () => {
    const secret = newSecret();
    const payload = JSON.stringify(event);
    const tampered = payload.replace('suspended', 'active');
    expect(() => verifyWebhook(tampered, signed(payload, [secret]), secret)).toThrow(WebhookVerificationError);
  });

  it('refuses a request signed with another secret', () => {
    const payload = JSON.stringify(event);
    expect(() => verifyWebhook(payload, signed(payload, [newSecret()]), newSecret())).toThrow('No matching signature found');
  });

  it('accepts either secret while both sign (rotation: two v1 signatures in one header)', () => {
    const [old, fresh] = [newSecret(), newSecret()];
    const payload = JSON.stringify(event);
    const headers = signed(payload, [old, fresh]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifyWebhook(payload, headers, old)).toEqual(event);
    expect(verifyWebhook(payload, headers, fresh)).toEqual(event);
    // A receiver switching over may hold both: each is tried.
    expect(verifyWebhook(payload, signed(payload, [fresh]), [old, fresh])).toEqual(event);
  });

  it('refuses missing headers, a stale timestamp and a signed payload that is not an event', () => {
    const secret = newSecret();
    const payload = JSON.stringify(event);
    const { 'webhook-signature': _, ...unsigned } = signed(payload, [secret]);
    expect(() => verifyWebhook(payload, unsigned, secret)).toThrow('Missing required headers');
    const stale = signed(payload, [secret], new Date(Date.now() - 10 * 60 * 1000));
    expect(() => verifyWebhook(payload, stale, secret)).toThrow('Message timestamp too old');
    const notEvent = JSON.stringify({ hello: 'world' });
    expect(() => verifyWebhook(notEvent, signed(notEvent, [secret]), secret)).toThrow('The payload is not a webhook event');
  });
});
