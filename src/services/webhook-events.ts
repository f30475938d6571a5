import type { WebhookEvent, WebhookEventType } from '../db/schema';
import { findBlockchainTransaction } from '../data/internal-transactions';
import { findPointLot } from '../data/point-lot-reads';
import { ApiError } from '../lib/errors';
import type { WebhookEventBody } from '../schemas/webhook-event';
import { toBlockchainTransactionView } from '../views/internal-transaction';
import { toPointLotView } from '../views/point-lot';
import type { ServiceContext } from './context';
import { getCustomer } from './customers';
import { getInternalTransaction } from './internal-transactions';
import { getRedemption } from './redemptions';

type ResourceLoader = (ctx: ServiceContext, id: string) => Promise<unknown>;

/** The lot whose points expire soon, with its customer. */
async function getExpiringLot({ db, tenantId }: ServiceContext, id: string) {
  const lot = await findPointLot(db, tenantId, id);
  if (!lot) throw ApiError.notFound('Point lot');
  return { ...toPointLotView(lot), user_id: lot.userId };
}

async function getBlockchainTransaction({ db, tenantId }: ServiceContext, id: string) {
  const row = await findBlockchainTransaction(db, tenantId, id);
  if (!row) throw ApiError.notFound('Blockchain transaction');
  return toBlockchainTransactionView(row);
}

/** The resource each event is about, read through the same services as the gateway's reads. */
const loaders: Record<WebhookEventType, ResourceLoader> = {
  'customer.created': getCustomer,
  'customer.status_changed': getCustomer,
  'customer.tier_changed': getCustomer,
  'customer.erased': getCustomer,
  'xp.transaction.completed': getInternalTransaction,
  'xp.transaction.failed': getInternalTransaction,
  'xp.expiring': getExpiringLot,
  'xp.expired': getInternalTransaction,
  'redemption.completed': getRedemption,
  'redemption.failed': getRedemption,
  'redemption.canceled': getRedemption,
  'onchain.transaction.succeeded': getBlockchainTransaction,
  'onchain.transaction.failed': getBlockchainTransaction,
};

async function resourceOf(ctx: ServiceContext, event: WebhookEvent): Promise<unknown> {
  try {
    return await loaders[event.type](ctx, event.resourceId);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') return null;
    throw error;
  }
}

/**
 * The body sent for an event: the resource in the envelope of every API response, as it stands
 * when first rendered (normally within seconds of the change); `previous_attributes` are exact as
 * of the change itself, recorded by the trigger in its transaction.
 */
export async function renderEventBody(ctx: ServiceContext, event: WebhookEvent): Promise<string> {
  const body: WebhookEventBody = {
    id: event.id,
    type: event.type,
    created_at: event.createdAt,
    tenant_id: event.tenantId,
    data: { success: true, data: await resourceOf(ctx, event) },
    ...(event.previousAttributes === null ? {} : { previous_attributes: event.previousAttributes as Record<string, unknown> }),
    ...(event.reason === null ? {} : { reason: event.reason }),
  };
  return JSON.stringify(body);
}
