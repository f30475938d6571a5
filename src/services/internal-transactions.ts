import type { Database } from '../db/client';
import { findInternalTransaction } from '../data/internal-transactions';
import { ApiError } from '../lib/errors';
import type { InternalTransactionView } from '../schemas/internal-transaction';
import { toInternalTransactionView } from '../views/internal-transaction';

/** One internal transaction of the tenant; another tenant's id is answered as missing. */
export async function getInternalTransaction(db: Database, tenantId: string, id: string): Promise<InternalTransactionView> {
  const found = await findInternalTransaction(db, tenantId, id);
  if (!found) throw ApiError.notFound('Internal transaction');
  return toInternalTransactionView(found.tx, found.details);
}
