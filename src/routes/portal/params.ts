import { z } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import type { PortalEnv } from '../../app-env';
import { ApiError } from '../../lib/errors';
import { fieldErrors } from '../openapi';
import { pathId } from '../../schemas/common';

/** The `{tenantId}` path segment of every portal route (membership is checked by authenticateMember). */
export const tenantParams = z.object({ tenantId: pathId('tenantId', 'The tenant id (`ten_...`)') });

/**
 * Checks `{tenantId}` before authentication looks the membership up: a malformed id is a 422 and
 * never reaches storage. (Route validators run after the surface's middleware, too late for this.)
 */
export const requireWellFormedTenantId = createMiddleware<PortalEnv>(async function requireWellFormedTenantId(c, next) {
  const parsed = tenantParams.safeParse({ tenantId: c.req.param('tenantId') });
  if (!parsed.success) throw new ApiError('VALIDATION_FAILED', 'The request is not valid', { errors: fieldErrors(parsed.error) });
  await next();
});

/** `{userId}` of the member routes. */
export const memberParams = tenantParams.extend({
  userId: pathId('userId', "The person's user id (not the membership id); for an invitation not yet accepted, its membership id."),
});

/** `{attributeId}` of the attribute definition routes. */
export const attributeParams = tenantParams.extend({ attributeId: pathId('attributeId', 'The definition id (as returned by create)') });

/** `{customer_id}` of the customer attribute routes (spec name). */
export const customerAttributeParams = tenantParams.extend({ customer_id: pathId('customer_id', 'The customer id') });

/** `{cohortId}` of the cohort routes. */
export const cohortParams = tenantParams.extend({ cohortId: pathId('cohortId') });

/** `{userId}` of the customer routes: the customer id (`cus_...`). */
export const customerParams = tenantParams.extend({ userId: pathId('userId', 'The customer id') });

/** `{tierId}` of the tier routes. */
export const tierParams = tenantParams.extend({ tierId: pathId('tierId') });

/** `{userId}` and `{tierId}` of the eligibility route. */
export const customerTierParams = customerParams.extend({ tierId: tierParams.shape.tierId });

/** `{rewardId}` of the reward routes. */
export const rewardParams = tenantParams.extend({ rewardId: pathId('rewardId') });

/** `{redemption_id}` of the redemption routes (spec name). */
export const redemptionParams = tenantParams.extend({ redemption_id: pathId('redemption_id') });

/** `{id}` of the onchain asset routes. */
export const onchainAssetParams = tenantParams.extend({ id: pathId('id', 'The onchain asset id (`ast_...`)') });

/** `{id}` of the API key routes. */
export const apiKeyParams = tenantParams.extend({ id: pathId('id', 'The record id (not the key_id)') });

/** `{internal_transaction_id}` (spec name). */
export const internalTransactionParams = tenantParams.extend({ internal_transaction_id: pathId('internal_transaction_id') });

/** `{id}` of the webhook endpoint routes. */
export const webhookEndpointParams = tenantParams.extend({ id: pathId('id', 'The webhook endpoint id (`whe_...`)') });

/** `{id}` and `{deliveryId}` of a webhook delivery. */
export const webhookDeliveryParams = webhookEndpointParams.extend({ deliveryId: pathId('deliveryId', 'The delivery id (`whd_...`)') });

/** `{id}` of the earning rule routes. */
export const earningRuleParams = tenantParams.extend({ id: pathId('id', 'The earning rule id (`rule_...`)') });

/** `{id}` of the event routes. */
export const eventParams = tenantParams.extend({ id: pathId('id', 'The event id') });

/** `{importId}` of the import routes. */
export const importParams = tenantParams.extend({ importId: pathId('importId', 'The import id (`imp_...`)') });
/** `{exportId}` of the export routes. */
export const exportParams = tenantParams.extend({ exportId: pathId('exportId', 'The export id (`exp_...`)') });
