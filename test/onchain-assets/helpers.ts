import { onchainAssets, type OnchainAsset } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { db } from '../support/world';

export const assetsPath = (tenantId: string, suffix = '') => `/api/v1/tenant/${tenantId}/onchain-assets${suffix}`;

/** A valid-looking address that is unique per call (for rows inserted directly, never sent to a chain). */
export function randomAddress(): `0x${string}` {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  return `0x${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** An asset row inserted directly (active erc20 on 31337 unless overridden): for tests that are not about creating one. */
export async function insertAssetRow(tenantId: string, values: Partial<typeof onchainAssets.$inferInsert> = {}): Promise<OnchainAsset> {
  const [row] = await db()
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
