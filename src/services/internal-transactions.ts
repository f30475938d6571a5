import type { Tenant } from '../db/schema';
import { findInternalTransaction, listInternalTransactionRows } from '../data/internal-transactions';
import { ApiError } from '../lib/errors';
import { pageOf, type Page } from '../lib/paging';
import type { InternalTransactionListQuery, InternalTransactionView } from '../schemas/internal-transaction';
import { toAdminInternalTransactionView, toInternalTransactionView } from '../views/internal-transaction';
import type { ServiceContext } from './context';

/**
 * Portal reads pass the tenant they resolved: the spec adds `tenant` and `user` briefs "when an
 * admin joins them", which the portal (the admin's surface) always does. Gateway reads omit both.
 */
export type AdminContext = { tenant: Tenant };

/** One internal transaction of the tenant; another tenant's id is answered as missing. */
export async function getInternalTransaction({ db, tenantId }: ServiceContext, id: string, admin?: AdminContext): Promise<InternalTransactionView> {
  const found = await findInternalTransaction(db, tenantId, id, admin !== undefined);
  if (!found) throw ApiError.notFound('Internal transaction');
  return admin
    ? toAdminInternalTransactionView(found.tx, found.details, { tenant: admin.tenant, customer: found.customer })
    : toInternalTransactionView(found.tx, found.details);
}

/** A page of the tenant's transactions, newest first, filtered by type, status and customer. */
export async function listInternalTransactions({ db, tenantId }: ServiceContext, query: InternalTransactionListQuery, admin?: AdminContext): Promise<Page<InternalTransactionView>> {
  const { page, limit, type, status, user_id: userId } = query;
  const { items, total } = await listInternalTransactionRows(db, tenantId, { type, status, userId }, { page, limit });
  const views = items.map(({ tx, details, customer }) =>
    admin ? toAdminInternalTransactionView(tx, details, { tenant: admin.tenant, customer }) : toInternalTransactionView(tx, details),
  );
  return pageOf(views, total, { page, limit });
}
