import { z } from '@hono/zod-openapi';

/** `{userId}` of the gateway customer routes: the customer id (`cus_...`), not the external id. */
export const customerParams = z.object({
  userId: z.string().min(1).openapi({ param: { name: 'userId', in: 'path' }, description: 'The customer id' }),
});

/** `{userId}` and `{tierId}` of the eligibility route. */
export const customerTierParams = customerParams.extend({
  tierId: z.string().min(1).openapi({ param: { name: 'tierId', in: 'path' } }),
});
