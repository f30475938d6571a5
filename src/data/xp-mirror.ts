import { sql, type SQL } from 'drizzle-orm';
import { internalWallets, onchainAssets, onchainOperations, XP_ASSET_KEY } from '../db/schema';
import { selectedRow, type Value } from './insert-select';
import type { Bound } from './reusable-statements';

/**
 * The XP token's mirror of the ledger (docs/ONCHAIN.md): which customers it mirrors, and the
 * operation row that mints or burns an entry's XP on it. Shared by every writer of XP entries.
 */

/** Base units are `amount x 10^decimals`: the decimal string gets `decimals` zeros (exact past 2^63). */
export const ZEROS = '0'.repeat(36);

/** The columns of a new XP operation (a mirror or an opening) that settlement fills later, as written: none yet. */
export const UNSENT_XP_OPERATION = { tokenId: null, relayerAddress: null, nonce: null, errorCount: 0, lastError: null, nextAttemptAt: null, reservedGas: null, gasReservation: null } as const;

/**
 * Every customer an XP token mirrors, one row each: the tenant's XP token (an `xp` asset deploying
 * or active) and the customer's wallet on its chain (`asset_id`, `tenant_id`, `chain_id`,
 * `decimals`, `user_id`, `address`). A customer's entries are mirrored onchain exactly when it has
 * a row. SQLite flattens it into the query that filters it, so a lookup stays two index searches.
 */
export const XP_MIRRORS = sql`(select a.id as asset_id, a.tenant_id, a.chain_id, a.decimals, w.user_id, w.address
  from ${onchainAssets} a join ${internalWallets} w on w.tenant_id = a.tenant_id
  where a.key = ${XP_ASSET_KEY} and a.status in ('deploying', 'active'))`;

/**
 * The `XP_MIRRORS` row of one customer, or none. `tenantId`, `userId`: values, or the columns of
 * an outer query's row.
 */
export function xpMirror(tenantId: Bound<string> | SQL, userId: Bound<string> | SQL): SQL {
  return sql`select m.asset_id, m.chain_id, m.decimals, m.address from ${XP_MIRRORS} m
    where m.tenant_id = ${tenantId} and m.user_id = ${userId} limit 1`;
}

type MirrorOperation = { [K in 'id' | 'tenantId' | 'kind' | 'status' | 'internalTransactionId' | 'redemptionId' | 'dependsOnOperationId' | 'amountDigits' | 'now']: Value };

/**
 * The selected row of an XP mirror operation, over a FROM that names the `xpMirror` row `m`: the
 * token's chain and asset, the customer's wallet, and the amount in base units (`amountDigits`
 * followed by the token's decimals as zeros), not yet sent.
 */
export function xpMirrorOperationRow(values: MirrorOperation) {
  const { amountDigits, now, ...fields } = values;
  return selectedRow(onchainOperations, {
    ...fields,
    chainId: sql`m.chain_id`,
    onchainAssetId: sql`m.asset_id`,
    recipient: sql`m.address`,
    amount: sql`${amountDigits} || substr(${ZEROS}, 1, coalesce(m.decimals, 0))`,
    ...UNSENT_XP_OPERATION,
    createdAt: now,
    updatedAt: now,
  });
}
