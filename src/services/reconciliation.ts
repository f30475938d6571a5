import { erc20Abi, getAddress } from 'viem';
import type { OnchainContext } from '../chain/context';
import type { Database } from '../db/client';
import { XP_ASSET_KEY, type OnchainAsset } from '../db/schema';
import { findOnchainAsset } from '../data/onchain-assets';
import { indexedBalancesPerCustomer, settledOperationsPerRecipient, settledXpPerCustomer } from '../data/reconciliation';
import { sumBaseUnits, toBaseUnits } from '../domain/onchain-assets';
import type { ReconciliationCustomerView, ReconciliationView } from '../schemas/onchain-asset';
import type { ServiceContext } from './context';
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

/**
 * XP token: the ledger side is each customer's settled XP (every completed entry, whether mirrored
 * onto the token or earned before it: the token must carry all of it), scaled to base units.
 */
async function addXpLedger(db: Database, asset: OnchainAsset, sides: Map<string, Side>) {
  for (const row of await settledXpPerCustomer(db, asset.tenantId)) {
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

type Supply = Pick<ReconciliationView, 'total_supply' | 'supply_source'>;

/**
 * Every unit in existence as of the indexer cursor: an erc20's own `totalSupply()` at that block
 * (it sees even a mint that emitted no Transfer), else what the indexer saw minted minus burned.
 * A chain that cannot be read falls back to the indexed figure, said so by `supply_source`.
 */
async function supplyOf(onchain: OnchainContext, asset: OnchainAsset): Promise<Supply> {
  const indexed: Supply = { total_supply: asset.lastIndexedBlock === null ? null : (asset.indexedSupply ?? '0'), supply_source: 'indexed_transfers' };
  if (asset.type !== 'erc20' || asset.lastIndexedBlock === null || !asset.assetAddress) return indexed;
  try {
    const client = onchain.client(asset.chainId);
    const supply = await client.readContract({ address: getAddress(asset.assetAddress), abi: erc20Abi, functionName: 'totalSupply', blockNumber: BigInt(asset.lastIndexedBlock) });
    return { total_supply: supply.toString(), supply_source: 'total_supply' };
  } catch {
    return indexed;
  }
}

/**
 * The settled ledger against the indexed chain for one asset. The onchain side is as of
 * `last_indexed_block`, so a settlement newer than the indexer shows as a difference until the next
 * indexer run; after it, a settled ledger and the chain agree exactly.
 */
export async function reconcileOnchainAsset({ db, tenantId, onchain }: ServiceContext, assetId: string): Promise<ReconciliationView> {
  const asset = await findOnchainAsset(db, tenantId, assetId);
  if (!asset) throw onchainAssetNotFound();
  const supply = supplyOf(onchain, asset);
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
  const { total_supply, supply_source } = await supply;
  return {
    asset_id: asset.id,
    key: asset.key,
    decimals: asset.decimals ?? 0,
    ledger_total: ledgerTotal.toString(),
    onchain_total: onchainTotal.toString(),
    difference: (onchainTotal - ledgerTotal).toString(),
    last_indexed_block: asset.lastIndexedBlock,
    total_supply,
    supply_source,
    supply_difference: total_supply === null ? null : (BigInt(total_supply) - ledgerTotal).toString(),
    customers,
  };
}
