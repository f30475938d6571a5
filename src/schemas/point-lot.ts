import { z } from '@hono/zod-openapi';
import { pointLotStatuses } from '../db/schema';
import { pageQuery } from '../lib/paging';
import { dateTime, xpString } from './common';

/** One credit's points as they wait, are spent and expire (CONTRACT.md, Point lifecycle). */
export const pointLotSchema = z
  .strictObject({
    id: z.string(),
    internal_transaction_id: z.string().nullable().openapi({ description: 'The credit; null for points carried over from a balance held before lots existed' }),
    amount: xpString.openapi({ description: 'XP credited' }),
    remaining: xpString.openapi({ description: 'XP not yet spent, expired or reversed' }),
    status: z.enum(pointLotStatuses),
    available_at: dateTime.openapi({ description: 'When the points become spendable (the end of the pending period)' }),
    expires_at: dateTime.nullable().openapi({ description: 'Null when points do not expire' }),
    created_at: dateTime,
  })
  .openapi('PointLot');

export type PointLotView = z.infer<typeof pointLotSchema>;

/** The `xp.expiring` webhook's resource: the lot, with the customer whose points expire. */
export const expiringPointLotSchema = z.strictObject({ ...pointLotSchema.shape, user_id: z.string() }).openapi('ExpiringPointLot');

export type ExpiringPointLotView = z.infer<typeof expiringPointLotSchema>;

/** Both point lot lists (gateway and portal); a status outside the enum is a 422. */
export const pointLotListQuery = pageQuery.extend({ status: z.enum(pointLotStatuses).optional() });

export type PointLotListQuery = z.infer<typeof pointLotListQuery>;

/** XP that expires at one instant: the active lots' remaining with that `expires_at`. */
export const expiringPointsSchema = z.strictObject({ expires_at: dateTime, amount: xpString }).openapi('ExpiringPoints');

/** A customer's points at a glance: spendable, waiting, earned in all, and what expires next. */
export const customerPointsSchema = z
  .strictObject({
    xp_balance: xpString.openapi({ description: 'Spendable XP' }),
    pending_xp: xpString.openapi({ description: 'XP credited but not yet spendable (pending lots)' }),
    lifetime_xp: xpString,
    expiring: z.array(expiringPointsSchema).openapi({ description: 'The next 5 expiry instants of active points, earliest first' }),
  })
  .openapi('CustomerPoints');

export type CustomerPointsView = z.infer<typeof customerPointsSchema>;
