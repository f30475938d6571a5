import { customerCohortsQuery, customerWalletsQuery } from '../data/customer-data';
import { erasureStatements } from '../data/erasure';
import { MAX_PAGE_SIZE, type Page } from '../lib/paging';
import { isoNow } from '../lib/time';
import type { CustomerDataView } from '../schemas/customer-data';
import type { CustomerView } from '../schemas/customer';
import { toInternalWalletView } from '../views/balance';
import type { ServiceContext } from './context';
import { listAuditLog } from './audit-log';
import { getCustomerAttributes } from './customer-attributes';
import { listCustomerBalances } from './customer-balances';
import { getCustomerPoints, listPointLots } from './customer-points';
import { getCustomer } from './customers';
import { listEvents } from './event-reads';
import { listInternalTransactions } from './internal-transactions';
import { listRedemptions } from './redemptions';

/**
 * A person's data (docs/OPERATIONS.md, "Erasure and subject access"): erasing it, and exporting
 * everything held about them.
 */

/**
 * Removes the person's data and keeps the ledger, redemptions, balances and tier under the customer
 * id, in one D1 batch; idempotent (a second erasure changes nothing and answers the same). 404 for
 * an unknown customer or another tenant's.
 */
export async function eraseCustomer(ctx: ServiceContext, customerId: string): Promise<CustomerView> {
  await ctx.db.batch(erasureStatements(ctx.db, ctx.tenantId, customerId, isoNow(ctx.now())));
  return getCustomer(ctx, customerId);
}

/** Every item of a list, page after page (the largest page each time). */
async function everything<T>(list: (params: { page: number; limit: number }) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const result = await list({ page, limit: MAX_PAGE_SIZE });
    items.push(...result.items);
    if (!result.has_next_page) return items;
  }
}

/** Subject access: every record held about the customer, each as the API shows it, in one document. */
export async function exportCustomerData(ctx: ServiceContext, customerId: string): Promise<CustomerDataView> {
  const customer = await getCustomer(ctx, customerId);
  const [attributes, points, onchainBalances, transactions, lots, redemptions, events, auditEntries, [cohorts, wallets]] = await Promise.all([
    getCustomerAttributes(ctx, customerId),
    getCustomerPoints(ctx, customerId),
    everything((params) => listCustomerBalances(ctx, customerId, params)),
    everything((params) => listInternalTransactions(ctx, { ...params, user_id: customerId })),
    everything((params) => listPointLots(ctx, customerId, params)),
    everything((params) => listRedemptions(ctx, { ...params, user_id: customerId })),
    everything((params) => listEvents(ctx, { ...params, user_id: customerId })),
    everything((params) => listAuditLog(ctx, { ...params, target_id: customerId })),
    ctx.db.batch([customerCohortsQuery(ctx.db, ctx.tenantId, customerId), customerWalletsQuery(ctx.db, ctx.tenantId, customerId)]),
  ]);
  return {
    exported_at: isoNow(ctx.now()),
    customer,
    attributes,
    points,
    wallets: wallets.map(toInternalWalletView),
    onchain_balances: onchainBalances,
    cohorts,
    internal_transactions: transactions,
    point_lots: lots,
    redemptions,
    events,
    audit_log: auditEntries,
  };
}
