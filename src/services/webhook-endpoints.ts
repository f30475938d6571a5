import { encryptSecret } from '../auth/secret-box';
import type { Config } from '../config';
import {
  deleteEndpoint,
  findEndpoint,
  findEndpointPage,
  forgetEndpointPresence,
  insertEndpointWithinBound,
  updateEndpoint,
  updateEndpointUnlessUrlTaken,
} from '../data/webhook-endpoints';
import { MAX_ENDPOINTS_PER_TENANT, PREVIOUS_SECRET_TTL_MS, normalizedTargetUrl, targetProblem } from '../domain/webhooks';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { pageOf, type Page, type PageParams } from '../lib/paging';
import { isoNow } from '../lib/time';
import type { CreateWebhookEndpointBody, UpdateWebhookEndpointBody, WebhookEndpointView } from '../schemas/webhook';
import { toWebhookEndpointView } from '../views/webhook';
import type { ServiceContext } from './context';

/** What endpoint writes and deliveries need from the configuration. */
export type WebhookSettings = { encryptionKey: string; allowPrivateTargets: boolean };

export function webhookSettings(config: Pick<Config, 'API_KEY_ENCRYPTION_KEY' | 'WEBHOOKS_ALLOW_PRIVATE_TARGETS'>): WebhookSettings {
  return { encryptionKey: config.API_KEY_ENCRYPTION_KEY, allowPrivateTargets: config.WEBHOOKS_ALLOW_PRIVATE_TARGETS };
}

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
function newSigningSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

/** The URL as stored and compared (`normalizedTargetUrl`), once it is known to be a target allowed here. */
function checkedTarget(url: string, settings: WebhookSettings): string {
  const problem = targetProblem(url, settings.allowPrivateTargets);
  if (problem) throw new ApiError('VALIDATION_FAILED', problem, { path: 'url' });
  return normalizedTargetUrl(url);
}

/** Two enabled endpoints of a tenant never share a URL: each would receive every event twice. */
const urlTaken = () => new ApiError('CONFLICT', 'Another enabled webhook endpoint of this tenant has this URL', { path: 'url' });

/** Creates an enabled endpoint; its secret is answered here once and stored encrypted. */
export async function createWebhookEndpoint({ db, tenantId }: ServiceContext, input: CreateWebhookEndpointBody, settings: WebhookSettings) {
  const url = checkedTarget(input.url, settings);
  const secret = newSigningSecret();
  const result = await insertEndpointWithinBound(db, {
    id: newId('whe'),
    tenantId,
    url,
    description: input.description ?? '',
    eventTypes: input.event_types,
    secretCiphertext: await encryptSecret(settings.encryptionKey, secret),
  });
  if ('refused' in result) {
    throw result.refused === 'url_taken' ? urlTaken() : new ApiError('CONFLICT', `A tenant has at most ${MAX_ENDPOINTS_PER_TENANT} webhook endpoints: delete one first`);
  }
  forgetEndpointPresence(tenantId);
  return { ...toWebhookEndpointView(result.endpoint), secret };
}

export async function listWebhookEndpoints({ db, tenantId }: ServiceContext, params: PageParams): Promise<Page<WebhookEndpointView>> {
  const { rows, total } = await findEndpointPage(db, tenantId, params);
  return pageOf(rows.map(toWebhookEndpointView), total, params);
}

export async function getWebhookEndpoint({ db, tenantId }: ServiceContext, id: string): Promise<WebhookEndpointView> {
  const endpoint = await findEndpoint(db, tenantId, id);
  if (!endpoint) throw ApiError.notFound('Webhook endpoint');
  return toWebhookEndpointView(endpoint);
}

/**
 * Enabling (again) clears why it was disabled and its failure streak: deliveries start afresh. An
 * endpoint may not become enabled with the URL of another enabled one (409 at `url`).
 */
export async function updateWebhookEndpoint({ db, tenantId }: ServiceContext, id: string, input: UpdateWebhookEndpointBody, settings: WebhookSettings) {
  const result = await updateEndpointUnlessUrlTaken(db, tenantId, id, {
    url: input.url === undefined ? undefined : checkedTarget(input.url, settings),
    description: input.description,
    eventTypes: input.event_types,
    status: input.status,
    ...(input.status === undefined ? {} : { disabledReason: null, failingSince: null }),
  });
  if ('refused' in result) throw result.refused === 'url_taken' ? urlTaken() : ApiError.notFound('Webhook endpoint');
  forgetEndpointPresence(tenantId);
  return toWebhookEndpointView(result.endpoint);
}

export async function deleteWebhookEndpoint({ db, tenantId }: ServiceContext, id: string): Promise<void> {
  if (!(await deleteEndpoint(db, tenantId, id))) throw ApiError.notFound('Webhook endpoint');
  forgetEndpointPresence(tenantId);
}

/**
 * A new signing secret, answered once. The one it replaces keeps signing beside it for 24 hours
 * (each request then carries both signatures), so a receiver can switch without losing events.
 */
export async function rotateWebhookSecret({ db, tenantId, now }: ServiceContext, id: string, settings: WebhookSettings) {
  const current = await findEndpoint(db, tenantId, id);
  if (!current) throw ApiError.notFound('Webhook endpoint');
  const secret = newSigningSecret();
  // Only over the secret read above: a rotation that lands in between would otherwise be replaced
  // without becoming the previous secret, and the secret it handed out would never sign.
  const updated = await updateEndpoint(
    db,
    tenantId,
    id,
    {
      secretCiphertext: await encryptSecret(settings.encryptionKey, secret),
      previousSecretCiphertext: current.secretCiphertext,
      previousSecretExpiresAt: isoNow(new Date(now().getTime() + PREVIOUS_SECRET_TTL_MS)),
    },
    current.secretCiphertext,
  );
  if (!updated) throw new ApiError('CONFLICT', 'The secret was rotated at the same time by another request: read the endpoint and rotate again if needed');
  return { ...toWebhookEndpointView(updated), secret };
}
