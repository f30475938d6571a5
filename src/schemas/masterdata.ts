import { z } from '@hono/zod-openapi';
import { attributeTypes, customerStatuses, roles, transactionStatuses, transactionTypes } from '../db/schema';
import { cohortOps } from '../domain/cohort-ops';
import { countrySchema } from './country';

/** Reference data the CMS needs to build its forms and filters. */
export const masterdataSchema = z
  .strictObject({
    countries: z.array(countrySchema),
    transaction_types: z.array(z.enum(transactionTypes)),
    transaction_statuses: z.array(z.enum(transactionStatuses)),
    customer_statuses: z.array(z.enum(customerStatuses)),
    attribute_types: z.array(z.enum(attributeTypes)),
    cohort_ops: z.array(z.enum(cohortOps)),
    roles: z.array(z.enum(roles)),
  })
  .openapi('Masterdata');

export type MasterdataView = z.infer<typeof masterdataSchema>;
