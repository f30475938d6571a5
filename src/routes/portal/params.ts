import { z } from '@hono/zod-openapi';

/** The `{tenantId}` path segment of every portal route (membership is checked by authenticateMember). */
export const tenantParams = z.object({
  tenantId: z.string().min(1).openapi({ param: { name: 'tenantId', in: 'path' }, example: 'ten_3k9q...' }),
});

/** `{userId}` of the member routes. */
export const memberParams = tenantParams.extend({
  userId: z.string().min(1).openapi({
    param: { name: 'userId', in: 'path' },
    description: "The person's user id (not the membership id); for an invitation not yet accepted, its membership id.",
  }),
});

/** `{attributeId}` of the attribute definition routes. */
export const attributeParams = tenantParams.extend({
  attributeId: z.string().min(1).openapi({ param: { name: 'attributeId', in: 'path' }, description: 'The definition id (as returned by create)' }),
});

/** `{customer_id}` of the customer attribute routes (spec name). */
export const customerAttributeParams = tenantParams.extend({
  customer_id: z.string().min(1).openapi({ param: { name: 'customer_id', in: 'path' } }),
});

/** `{cohortId}` of the cohort routes. */
export const cohortParams = tenantParams.extend({
  cohortId: z.string().min(1).openapi({ param: { name: 'cohortId', in: 'path' } }),
});

/** `{userId}` of the customer routes: the customer id (`cus_...`). */
export const customerParams = tenantParams.extend({
  userId: z.string().min(1).openapi({ param: { name: 'userId', in: 'path' }, description: 'The customer id' }),
});

/** `{tierId}` of the tier routes. */
export const tierParams = tenantParams.extend({
  tierId: z.string().min(1).openapi({ param: { name: 'tierId', in: 'path' } }),
});

/** `{userId}` and `{tierId}` of the eligibility route. */
export const customerTierParams = customerParams.extend({ tierId: tierParams.shape.tierId });

/** `{rewardId}` of the reward routes. */
export const rewardParams = tenantParams.extend({
  rewardId: z.string().min(1).openapi({ param: { name: 'rewardId', in: 'path' } }),
});

/** `{redemption_id}` of the redemption routes (spec name). */
export const redemptionParams = tenantParams.extend({
  redemption_id: z.string().min(1).openapi({ param: { name: 'redemption_id', in: 'path' } }),
});

/** `{id}` of the onchain asset routes. */
export const onchainAssetParams = tenantParams.extend({
  id: z.string().min(1).openapi({ param: { name: 'id', in: 'path' }, description: 'The onchain asset id (`ast_...`)' }),
});
