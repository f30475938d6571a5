import { getAddress } from 'viem';
import type { Database } from '../db/client';
import type { OnchainAsset } from '../db/schema';
import {
  advanceCursorStatement,
  deleteHoldingStatement,
  holdingsOf,
  platformWalletsAmong,
  upsertHoldingStatement,
  type CursorGuard,
  type PlatformWallet,
} from '../data/asset-balances';
import { applyDelta, foldTransfers, holdingKey, netMinted, type TransferLog } from '../domain/transfers';
import { log } from '../lib/log';

/** One asset's indexing state during a run (mirrors its row; `guard` is what the database holds). */
export type AssetCursor = {
  asset: OnchainAsset;
  /** Checksummed contract address. */
  address: string;
  /** The first block not indexed yet. */
  nextBlock: number;
  guard: CursorGuard;
  totalTxns: number;
  /** Minted minus burned up to the cursor, base units. */
  supply: bigint;
  /** Another run moved this cursor first: this run leaves the asset alone. */
  lost: boolean;
};

type Statement =
  | ReturnType<typeof upsertHoldingStatement>
  | ReturnType<typeof deleteHoldingStatement>
  | ReturnType<typeof advanceCursorStatement>;

/** The logs of this cursor's contract that it has not indexed yet (a chunk may start before its cursor). */
function logsFor(cursor: AssetCursor, logs: readonly TransferLog[]): TransferLog[] {
  const address = cursor.address.toLowerCase();
  return logs.filter((log) => log.address.toLowerCase() === address && log.blockNumber >= cursor.nextBlock);
}

/** Per tenant: its wallets by lowercase address (an asset only ever credits its own tenant's wallets). */
function walletsByTenant(wallets: readonly PlatformWallet[]): Map<string, Map<string, PlatformWallet>> {
  const byTenant = new Map<string, Map<string, PlatformWallet>>();
  for (const wallet of wallets) {
    const own = byTenant.get(wallet.tenantId) ?? new Map<string, PlatformWallet>();
    own.set(wallet.address.toLowerCase(), wallet);
    byTenant.set(wallet.tenantId, own);
  }
  return byTenant;
}

/** The statements that bring one asset's holdings and counters to the end of the chunk. */
function assetStatements(
  db: Database,
  cursor: AssetCursor,
  logs: readonly TransferLog[],
  wallets: ReadonlyMap<string, PlatformWallet>,
  stored: ReadonlyMap<string, string>,
  chunk: { toBlock: number; genesisHash: string; now: string },
): Statement[] {
  const { asset } = cursor;
  const statements: Statement[] = [];
  for (const change of foldTransfers(logs, (holder) => wallets.has(holder.toLowerCase())).values()) {
    const wallet = wallets.get(change.holder.toLowerCase());
    if (!wallet) continue;
    // Rows always hold the checksummed address, so the unique holding index sees one form only.
    const userAddress = getAddress(wallet.address);
    const current = stored.get(`${asset.id} ${holdingKey(userAddress, change.tokenId)}`);
    const { balance, underflow } = applyDelta(current, change.delta);
    if (underflow) {
      log('warn', 'indexed balance went below zero; stored as 0', { job: 'asset-indexer', chain_id: asset.chainId, asset_id: asset.id, tenant_id: asset.tenantId });
    }
    const holding = { tenantId: asset.tenantId, onchainAssetId: asset.id, userAddress, tokenId: change.tokenId };
    if (balance === '0') {
      if (current !== undefined) statements.push(deleteHoldingStatement(db, cursor.guard, holding));
      continue;
    }
    statements.push(
      upsertHoldingStatement(db, cursor.guard, {
        ...holding,
        userId: wallet.userId,
        internalWalletId: wallet.id,
        assetAddress: cursor.address,
        chainId: asset.chainId,
        balance,
        lastUpdatedBlock: change.lastBlock,
        now: chunk.now,
      }),
    );
  }
  statements.push(
    advanceCursorStatement(db, cursor.guard, {
      tenantId: asset.tenantId,
      toBlock: chunk.toBlock,
      genesisHash: chunk.genesisHash,
      totalTxns: cursor.totalTxns + logs.length,
      supply: String(cursor.supply + netMinted(logs)),
      now: logs.length > 0 ? chunk.now : null,
    }),
  );
  return statements;
}

/**
 * Applies one scanned block range to every cursor that needed it, in ONE D1 batch: balances,
 * counters and cursors move together, so a crash never counts a range twice or loses one.
 * Returns how many transfer logs were indexed; cursors are advanced in memory (or marked lost).
 */
export async function commitChunk(
  db: Database,
  cursors: readonly AssetCursor[],
  logs: readonly TransferLog[],
  chunk: { toBlock: number; genesisHash: string; now: string },
): Promise<number> {
  const logsByCursor = cursors.map((cursor) => logsFor(cursor, logs));
  const holders = new Set<string>();
  for (const log of logsByCursor.flat()) for (const movement of log.movements) holders.add(movement.from).add(movement.to);

  const wallets = walletsByTenant(await platformWalletsAmong(db, [...holders]));
  const walletAddresses = [...wallets.values()].flatMap((own) => [...own.values()].map((wallet) => getAddress(wallet.address)));
  const stored = new Map<string, string>();
  for (const row of await holdingsOf(db, cursors.map((cursor) => cursor.asset.id), walletAddresses)) {
    stored.set(`${row.onchainAssetId} ${holdingKey(row.userAddress, row.tokenId)}`, row.balance);
  }

  const statements: Statement[] = [];
  /** Where each cursor's advance statement sits in the batch, to read whether it applied. */
  const advanceAt: number[] = [];
  cursors.forEach((cursor, index) => {
    const own = wallets.get(cursor.asset.tenantId) ?? new Map<string, PlatformWallet>();
    statements.push(...assetStatements(db, cursor, logsByCursor[index] ?? [], own, stored, chunk));
    advanceAt.push(statements.length - 1);
  });
  const [first, ...rest] = statements;
  if (!first) return 0;
  const results = await db.batch([first, ...rest]);

  let indexed = 0;
  cursors.forEach((cursor, index) => {
    const applied = results[advanceAt[index] ?? -1];
    if (!Array.isArray(applied) || applied.length !== 1) {
      cursor.lost = true;
      return;
    }
    const count = logsByCursor[index]?.length ?? 0;
    indexed += count;
    cursor.totalTxns += count;
    cursor.supply += netMinted(logsByCursor[index] ?? []);
    cursor.nextBlock = chunk.toBlock + 1;
    cursor.guard = { assetId: cursor.asset.id, lastIndexedBlock: chunk.toBlock, genesisHash: chunk.genesisHash };
  });
  return indexed;
}
