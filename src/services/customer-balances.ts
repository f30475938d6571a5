import type { Database } from '../db/client';
import { customerBalanceQueries } from '../data/balances';
import { customerByIdQuery } from '../data/customers';
import { ApiError } from '../lib/errors';
import { pageOf, type Page, type PageParams } from '../lib/paging';
import type { CustomerAssetBalanceView } from '../schemas/balance';
import { toCustomerAssetBalanceView } from '../views/balance';

/** A customer's onchain holdings as last indexed; another tenant's customer is a 404. */
export async function listCustomerBalances(db: Database, tenantId: string, userId: string, params: PageParams): Promise<Page<CustomerAssetBalanceView>> {
  const [[customer], rows, [total], assets, wallets] = await db.batch([
    customerByIdQuery(db, tenantId, userId),
    ...customerBalanceQueries(db, tenantId, userId, params),
  ]);
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
