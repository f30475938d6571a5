import type { Database } from '../db/client';
import { XP_ASSET_KEY, type OnchainAsset } from '../db/schema';
import { findOnchainAsset } from '../data/onchain-assets';
import { indexedBalancesPerCustomer, settledOperationsPerRecipient, settledXpPerCustomer } from '../data/reconciliation';
import { sumBaseUnits, toBaseUnits } from '../domain/onchain-assets';
import type { ReconciliationCustomerView, ReconciliationView } from '../schemas/onchain-asset';
import { onchainAssetNotFound } from './onchain-assets';

/** One holder's two sides, in base units. Keyed by customer id, or by address for a holder that is no customer's wallet. */
type Side = { userId: string | null; walletAddress: string | null; ledger: bigint; onchain: bigint };

const splitAmounts = (joined: string | null) => (joined ? joined.split(',') : []);

function sideOf(sides: Map<string, Side>, userId: string | null, walletAddress: string | null): Side {
  const key = userId ?? `address:${walletAddress}`;
  let side = sides.get(key);
  if (!side) {
    side = { userId, walletAddress, ledger: 0n, onchain: 0n };
    sides.set(key, side);
  }
  side.walletAddress ??= walletAddress;
  return side;
}

/** XP token: the ledger side is every completed XP entry mirrored onto it, scaled to base units. */
async function addXpLedger(db: Database, asset: OnchainAsset, sides: Map<string, Side>) {
  for (const row of await settledXpPerCustomer(db, asset.tenantId, asset.id)) {
    sideOf(sides, row.userId, row.walletAddress).ledger += BigInt(toBaseUnits(row.xp, asset.decimals ?? 0));
  }
}

/** Any other asset: the ledger side is what the platform minted minus what it burned, per recipient. */
async function addOperationLedger(db: Database, asset: OnchainAsset, sides: Map<string, Side>) {
  // An erc721 mint moves one token even when the operation carries no amount.
  const defaultAmount = asset.type === 'erc721' ? '1' : '0';
  for (const row of await settledOperationsPerRecipient(db, asset.tenantId, asset.id, defaultAmount)) {
    const amount = sumBaseUnits(splitAmounts(row.amounts));
    sideOf(sides, row.userId, row.recipient).ledger += row.kind === 'burn' ? -amount : amount;
  }
}

function toCustomerView(side: Side): ReconciliationCustomerView {
  return {
    user_id: side.userId,
    wallet_address: side.walletAddress,
    ledger_balance: side.ledger.toString(),
    onchain_balance: side.onchain.toString(),
    difference: (side.onchain - side.ledger).toString(),
  };
}

/**
 * The settled ledger against the indexed chain for one asset. The onchain side is as of
 * `last_indexed_block`, so a settlement newer than the indexer shows as a difference until the next
 * indexer run; after it, a settled ledger and the chain agree exactly.
 */
export async function reconcileOnchainAsset(db: Database, tenantId: string, assetId: string): Promise<ReconciliationView> {
  const asset = await findOnchainAsset(db, tenantId, assetId);
  if (!asset) throw onchainAssetNotFound();
  const sides = new Map<string, Side>();
  if (asset.key === XP_ASSET_KEY) await addXpLedger(db, asset, sides);
  else await addOperationLedger(db, asset, sides);
  for (const row of await indexedBalancesPerCustomer(db, tenantId, asset.id)) {
    sideOf(sides, row.userId, row.walletAddress).onchain += sumBaseUnits(splitAmounts(row.balances));
  }

  let ledgerTotal = 0n;
  let onchainTotal = 0n;
  const customers: ReconciliationCustomerView[] = [];
  for (const side of sides.values()) {
    ledgerTotal += side.ledger;
    onchainTotal += side.onchain;
    if (side.ledger !== side.onchain) customers.push(toCustomerView(side));
  }
  return {
    asset_id: asset.id,
    key: asset.key,
    decimals: asset.decimals ?? 0,
    ledger_total: ledgerTotal.toString(),
    onchain_total: onchainTotal.toString(),
    difference: (onchainTotal - ledgerTotal).toString(),
    last_indexed_block: asset.lastIndexedBlock,
    customers,
  };
}
