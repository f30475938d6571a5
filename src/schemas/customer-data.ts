import { z } from '@hono/zod-openapi';
import { attributeValueEntrySchema } from './attribute';
import { auditEntrySchema } from './audit-log';
import { customerAssetBalanceSchema, internalWalletSchema } from './balance';
import { dateTime } from './common';
import { customerSchema } from './customer';
import { eventSchema } from './event';
import { internalTransactionSchema } from './internal-transaction';
import { customerPointsSchema, pointLotSchema } from './point-lot';
import { redemptionSchema } from './redemption';

/**
 * Everything held about one customer (subject access, CONTRACT.md "Operations: erasure"), each
 * record as the API shows it elsewhere, on one page: no list here is paged.
 */
export const customerDataSchema = z
  .strictObject({
    exported_at: dateTime,
    customer: customerSchema,
    attributes: z.array(attributeValueEntrySchema),
    points: customerPointsSchema,
    wallets: z.array(internalWalletSchema),
    onchain_balances: z.array(customerAssetBalanceSchema),
    cohorts: z.array(z.strictObject({ id: z.string(), name: z.string() })).openapi({ description: 'The cohorts the customer is a member of now' }),
    internal_transactions: z.array(internalTransactionSchema),
    point_lots: z.array(pointLotSchema),
    redemptions: z.array(redemptionSchema),
    events: z.array(eventSchema),
    audit_log: z.array(auditEntrySchema).openapi({ description: "The audit log's entries about the customer (changes of its profile and attributes), newest first" }),
  })
  .openapi('CustomerData');

export type CustomerDataView = z.infer<typeof customerDataSchema>;
