import { customerByIdQuery } from '../data/customers';
import { namedBatch } from '../data/named-batch';
import { customerPointsQueries, pointLotPageQueries } from '../data/point-lot-reads';
import { ApiError } from '../lib/errors';
import { pageOf, type Page } from '../lib/paging';
import type { CustomerPointsView, PointLotListQuery, PointLotView } from '../schemas/point-lot';
import { toCustomerPointsView, toPointLotView } from '../views/point-lot';
import type { ServiceContext } from './context';

/** A customer's spendable, pending and lifetime XP and what expires next; another tenant's customer is a 404. */
export async function getCustomerPoints({ db, tenantId }: ServiceContext, userId: string): Promise<CustomerPointsView> {
  const { customerRows, points } = await namedBatch(db, {
    customerRows: customerByIdQuery(db, tenantId, userId),
    points: customerPointsQueries(db, tenantId, userId),
  });
  const [customer] = customerRows;
  const [[pending], expiring] = points;
  if (!customer) throw ApiError.notFound('Customer');
  return toCustomerPointsView(customer, pending?.value ?? 0, expiring);
}

/** A page of a customer's point lots, newest first, optionally of one status. */
export async function listPointLots({ db, tenantId }: ServiceContext, userId: string, query: PointLotListQuery): Promise<Page<PointLotView>> {
  const { customerRows, lots } = await namedBatch(db, {
    customerRows: customerByIdQuery(db, tenantId, userId),
    lots: pointLotPageQueries(db, tenantId, userId, query),
  });
  const [rows, [total]] = lots;
  if (!customerRows[0]) throw ApiError.notFound('Customer');
  return pageOf(rows.map(toPointLotView), total?.value ?? 0, query);
}
