import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { customerAssetBalances, internalWallets, onchainAssets, type OnchainAsset } from '../db/schema';
import { newId } from '../lib/ids';
import { namedBatch } from './named-batch';
import { inJsonList } from './json-list';

/**
 * Storage of the Transfer indexer. The indexer is a platform job, not a tenant request: reading
 * assets and wallets across tenants is its purpose, and every write names the asset's own tenant.
 *
 * Concurrency: two cron runs may overlap. Every write of a chunk is guarded by the asset's cursor
 * as the run read it (compare-and-set): balances are written as absolute values computed from
 * that state, and only while the cursor is unchanged, so a run that lost the race writes nothing.
 */

/** The asset's cursor as read by this run: the condition under which its writes still apply. */
export type CursorGuard = { assetId: string; lastIndexedBlock: number | null; genesisHash: string | null };

/** Holder addresses per wallet lookup: keeps each JSON parameter far below D1's size limits. */
const ADDRESSES_PER_QUERY = 400;

/** Onchain assets the indexer follows: deployed or registered (an address), not failed or deploying. */
export async function indexableAssets(db: Database): Promise<OnchainAsset[]> {
  return db
    .select()
    .from(onchainAssets)
    .where(and(inArray(onchainAssets.status, ['active', 'inactive']), isNotNull(onchainAssets.assetAddress)));
}

export type PlatformWallet = { id: string; tenantId: string; userId: string; address: string };

/**
 * The platform wallets among `holders` (any tenant; the caller keeps each asset's own tenant).
 * Holders are looked up in both checksummed and lowercase form, so the match is case-insensitive
 * while the lookup still uses the address index.
 */
export async function platformWalletsAmong(db: Database, holders: readonly string[]): Promise<PlatformWallet[]> {
  const forms = [...new Set(holders.flatMap((holder) => [holder, holder.toLowerCase()]))];
  if (forms.length === 0) return [];
  const queries = [];
  for (let start = 0; start < forms.length; start += ADDRESSES_PER_QUERY) {
    queries.push(
      db
        .select({ id: internalWallets.id, tenantId: internalWallets.tenantId, userId: internalWallets.userId, address: internalWallets.address })
        .from(internalWallets)
        .where(inJsonList(internalWallets.address, forms.slice(start, start + ADDRESSES_PER_QUERY))),
    );
  }
  const [first, ...rest] = queries;
  if (!first) return [];
  const pages = await db.batch([first, ...rest]);
  return pages.flat();
}

export type StoredHolding = { onchainAssetId: string; userAddress: string; tokenId: string; balance: string };

/** The current balances of the given assets held by the given (checksummed) wallet addresses. */
export async function holdingsOf(db: Database, assetIds: readonly string[], userAddresses: readonly string[]): Promise<StoredHolding[]> {
  if (assetIds.length === 0 || userAddresses.length === 0) return [];
  return db
    .select({
      onchainAssetId: customerAssetBalances.onchainAssetId,
      userAddress: customerAssetBalances.userAddress,
      tokenId: customerAssetBalances.tokenId,
      balance: customerAssetBalances.balance,
    })
    .from(customerAssetBalances)
    .where(and(inJsonList(customerAssetBalances.onchainAssetId, assetIds), inJsonList(customerAssetBalances.userAddress, userAddresses)));
}

/** True while the asset still exists with the cursor this run read. */
const cursorUnchanged = (guard: CursorGuard) =>
  sql`exists (select 1 from ${onchainAssets} where ${onchainAssets.id} = ${guard.assetId}
    and ${onchainAssets.lastIndexedBlock} is ${guard.lastIndexedBlock}
    and ${onchainAssets.indexedGenesisHash} is ${guard.genesisHash})`;

const sameCursor = (guard: CursorGuard) =>
  and(
    eq(onchainAssets.id, guard.assetId),
    sql`${onchainAssets.lastIndexedBlock} is ${guard.lastIndexedBlock}`,
    sql`${onchainAssets.indexedGenesisHash} is ${guard.genesisHash}`,
  );

export type HoldingWrite = {
  tenantId: string;
  userId: string;
  onchainAssetId: string;
  internalWalletId: string;
  assetAddress: string;
  chainId: number;
  userAddress: string;
  tokenId: string;
  balance: string;
  lastUpdatedBlock: number;
  now: string;
};

/** Sets one holding to an absolute balance (insert or update), only while the cursor is unchanged. */
export function upsertHoldingStatement(db: Database, guard: CursorGuard, holding: HoldingWrite) {
  const value = <T>(v: T, alias: string) => sql<T>`${v}`.as(alias);
  // INSERT ... SELECT <values> FROM the asset row WHERE its cursor is unchanged: zero or one row,
  // so the guard decides whether anything is written. (drizzle checks the fields' order.)
  const row = db
    .select({
      id: value(newId('bal'), 'id'),
      tenantId: value(holding.tenantId, 'tenant_id'),
      userId: value(holding.userId, 'user_id'),
      onchainAssetId: value(holding.onchainAssetId, 'onchain_asset_id'),
      internalWalletId: value(holding.internalWalletId, 'internal_wallet_id'),
      assetAddress: value(holding.assetAddress, 'asset_address'),
      chainId: value(holding.chainId, 'chain_id'),
      userAddress: value(holding.userAddress, 'user_address'),
      tokenId: value(holding.tokenId, 'token_id'),
      balance: value(holding.balance, 'balance'),
      lastUpdatedBlock: value(holding.lastUpdatedBlock, 'last_updated_block'),
      createdAt: value(holding.now, 'created_at'),
      updatedAt: value(holding.now, 'updated_at'),
    })
    .from(onchainAssets)
    .where(sameCursor(guard));
  return db
    .insert(customerAssetBalances)
    .select(row)
    .onConflictDoUpdate({
      target: [customerAssetBalances.tenantId, customerAssetBalances.onchainAssetId, customerAssetBalances.userAddress, customerAssetBalances.tokenId],
      set: { balance: holding.balance, lastUpdatedBlock: holding.lastUpdatedBlock, updatedAt: holding.now },
    });
}

/**
 * Removes a holding that fell to zero (an ERC-721 token sent away, a fully burned ERC-20 balance):
 * balances list what a wallet holds, so a zero balance has no row.
 */
export function deleteHoldingStatement(db: Database, guard: CursorGuard, holding: { tenantId: string; onchainAssetId: string; userAddress: string; tokenId: string }) {
  return db
    .delete(customerAssetBalances)
    .where(
      and(
        eq(customerAssetBalances.tenantId, holding.tenantId),
        eq(customerAssetBalances.onchainAssetId, holding.onchainAssetId),
        eq(customerAssetBalances.userAddress, holding.userAddress),
        eq(customerAssetBalances.tokenId, holding.tokenId),
        cursorUnchanged(guard),
      ),
    );
}

/**
 * Moves the cursor to `toBlock` with the asset's counters, last in the chunk's batch. `total_owners`
 * is counted from the balances just written: the platform wallets of the asset's tenant holding a
 * non-zero amount (holders outside the platform are not known to it). Returns the asset id when it
 * applied, nothing when another run moved the cursor first.
 */
export function advanceCursorStatement(
  db: Database,
  guard: CursorGuard,
  next: { tenantId: string; toBlock: number; genesisHash: string; totalTxns: number; supply: string; now: string | null },
) {
  return db
    .update(onchainAssets)
    .set({
      lastIndexedBlock: next.toBlock,
      indexedGenesisHash: next.genesisHash,
      totalTxns: next.totalTxns,
      indexedSupply: next.supply,
      totalOwners: sql`(select count(distinct ${customerAssetBalances.userAddress}) from ${customerAssetBalances}
        where ${customerAssetBalances.tenantId} = ${next.tenantId} and ${customerAssetBalances.onchainAssetId} = ${guard.assetId}
        and ${customerAssetBalances.balance} <> '0')`,
      // Only a chunk that saw transfers changes what the API shows; a cursor move alone is not an update.
      ...(next.now === null ? {} : { updatedAt: next.now }),
    })
    .where(sameCursor(guard))
    .returning({ id: onchainAssets.id });
}

/**
 * Forgets what was indexed from another chain history (the node was reset, the database kept):
 * the asset's balances go and its cursor restarts on `genesisHash`. One batch; nothing happens if
 * another run got there first.
 */
export async function resetIndex(db: Database, guard: CursorGuard, tenantId: string, genesisHash: string, now: string): Promise<boolean> {
  const { moved } = await namedBatch(db, {
    balances: db.delete(customerAssetBalances).where(and(eq(customerAssetBalances.tenantId, tenantId), eq(customerAssetBalances.onchainAssetId, guard.assetId), cursorUnchanged(guard))),
    moved: db
      .update(onchainAssets)
      .set({ lastIndexedBlock: null, indexedGenesisHash: genesisHash, totalTxns: null, totalOwners: null, indexedSupply: null, updatedAt: now })
      .where(sameCursor(guard))
      .returning({ id: onchainAssets.id }),
  });
  return moved.length === 1;
}
