import { z } from '@hono/zod-openapi';
import { pathId } from '../../schemas/common';

/** `{userId}` of the gateway customer routes: the customer id (`cus_...`), not the external id. */
export const customerParams = z.object({ userId: pathId('userId', 'The customer id') });

/** `{userId}` and `{tierId}` of the eligibility route. */
export const customerTierParams = customerParams.extend({ tierId: pathId('tierId') });

/** `{internal_transaction_id}` (spec name). */
export const internalTransactionParams = z.object({ internal_transaction_id: pathId('internal_transaction_id') });

/** `{redemption_id}` (spec name). */
export const redemptionParams = z.object({ redemption_id: pathId('redemption_id') });

/** `{id}` of an event (CONTRACT.md). */
export const eventParams = z.object({ id: pathId('id', 'The event id') });
