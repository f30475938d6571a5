import { onchainAssets, type OnchainAsset } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { randomAddress } from '../support/rewards';
import { db } from '../support/world';

export const assetsPath = (tenantId: string, suffix = '') => `/api/v1/tenant/${tenantId}/onchain-assets${suffix}`;


/** An asset row inserted directly (active erc20 on 31337 unless overridden): for tests that are not about creating one. */
export async function insertAssetRow(tenantId: string, values: Partial<typeof onchainAssets.$inferInsert> = {}): Promise<OnchainAsset> {
  const [row] = await db(tenantId)
    .insert(onchainAssets)
    .values({
      id: newId('ast'),
      tenantId,
      type: 'erc20',
      chainId: 31337,
      assetAddress: randomAddress(),
      decimals: 0,
      name: 'Row Token',
      symbol: 'ROW',
      status: 'active',
      ...values,
    })
    .returning();
  if (!row) throw new Error('asset insert returned nothing');
  return row;
}
