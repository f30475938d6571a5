import { customerBalanceQueries } from '../data/balances';
import { customerByIdQuery } from '../data/customers';
import { namedBatch } from '../data/named-batch';
import { ApiError } from '../lib/errors';
import { pageOf, type Page, type PageParams } from '../lib/paging';
import type { CustomerAssetBalanceView } from '../schemas/balance';
import { toCustomerAssetBalanceView } from '../views/balance';
import type { ServiceContext } from './context';

/** A customer's onchain holdings as last indexed; another tenant's customer is a 404. */
export async function listCustomerBalances({ db, tenantId }: ServiceContext, userId: string, params: PageParams): Promise<Page<CustomerAssetBalanceView>> {
  const { customerRows, balances } = await namedBatch(db, {
    customerRows: customerByIdQuery(db, tenantId, userId),
    balances: customerBalanceQueries(db, tenantId, userId, params),
  });
  const [customer] = customerRows;
  const [rows, [total], assets, wallets] = balances;
  if (!customer) throw ApiError.notFound('Customer');
  const items = rows.map((balance) => {
    const asset = assets.find((candidate) => candidate.id === balance.onchainAssetId);
    const wallet = wallets.find((candidate) => candidate.id === balance.internalWalletId);
    // The indexer writes balances only for registered assets and known wallets.
    if (!asset || !wallet) throw new Error(`balance ${balance.id} refers to a missing asset or wallet`);
    return toCustomerAssetBalanceView(balance, asset, wallet);
  });
  return pageOf(items, total?.value ?? 0, params);
}
