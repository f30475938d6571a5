import { and, asc, eq, exists, gt, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { customers, internalTransactions, internalWallets, onchainAssets, onchainOperations, xpTokenOpenings, XP_ASSET_KEY, type OnchainAsset } from '../db/schema';
import { selectedRow } from './insert-select';
import { UNSENT_XP_OPERATION, ZEROS } from './xp-mirror';

/**
 * Queries of the XP token's openings (services/xp-openings.ts): what a customer's ledger holds that
 * the token does not mirror, written as one opening (and its mint or burn) per customer and
 * activation, in chunks of customers by their list position.
 */

/** XP tokens whose current opening has customers left: active, at least once activated, not completed. */
export function openingsDue(db: Database, limit: number) {
  return db.select().from(onchainAssets)
    .where(and(eq(onchainAssets.key, XP_ASSET_KEY), eq(onchainAssets.status, 'active'), gt(onchainAssets.openingEpoch, 0), isNull(onchainAssets.openingCompletedAt)))
    .limit(limit);
}

/** The list positions of the next `size` customers after the cursor (customers are never deleted). */
export function nextCustomers(db: Database, asset: OnchainAsset, size: number) {
  return db.select({ seq: customers.seq }).from(customers)
    .where(and(eq(customers.tenantId, asset.tenantId), gt(customers.seq, asset.openingCursor ?? 0)))
    .orderBy(asc(customers.seq)).limit(size);
}

/** Which customers an opening statement covers: a range of list positions, or one customer. */
type Scope = { fromSeq: number; toSeq: number } | { userId: string };

const inScope = (scope: Scope): SQL =>
  'userId' in scope ? sql`c.id = ${scope.userId}` : sql`c.seq > ${scope.fromSeq} and c.seq <= ${scope.toSeq}`;

/**
 * Every settled entry of the customer the token does not carry: the balance as customers see it
 * (completed entries and debits still settling) minus the entries mirrored onto this token, counted
 * the same way, minus what earlier openings of the token moved (or are moving) for the customer.
 */
function unmirroredXp(assetId: string) {
  const t = internalTransactions;
  const mirrored = sql`(select coalesce(sum(${t.amount}), 0) from ${t} where ${t.tenantId} = c.tenant_id and ${t.userId} = c.id
    and ${t.onchainAssetId} = ${assetId} and (${t.status} = 'completed' or (${t.status} in ('initialized', 'pending') and ${t.amount} < 0)))`;
  const opened = sql`(select coalesce(sum(o.xp), 0) from ${xpTokenOpenings} o join ${onchainOperations} p on p.id = o.operation_id
    where o.onchain_asset_id = ${assetId} and o.user_id = c.id and p.status not in ('failed', 'canceled'))`;
  return sql`c.xp_balance - ${mirrored} - ${opened}`;
}

/**
 * The statements that open the customers in `scope` onto the asset for its current epoch, once: an
 * opening row per customer (ignored when the customer already has one for this epoch, so a chunk
 * run twice, or a chunk and a customer's own debit racing, open nobody twice), then the mint or burn
 * of each new row with XP to move and a wallet to move it to (inserted only with its own row's
 * operation id, so only the writer that won the row inserts it).
 */
export function openingStatements(db: Database, asset: OnchainAsset, scope: Scope) {
  const epoch = asset.openingEpoch;
  const w = internalWallets;
  const wallet = sql`left join ${w} w on w.tenant_id = c.tenant_id and w.user_id = c.id and w.wallet_kind = 'custodial'`;
  const o = xpTokenOpenings;
  const now = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
  const opening = selectedRow(o, {
    id: sql`'xop_' || lower(hex(randomblob(16)))`,
    tenantId: sql`x.tenant_id`,
    onchainAssetId: asset.id,
    userId: sql`x.id`,
    epoch,
    xp: sql`x.xp`,
    operationId: sql`case when x.xp <> 0 and x.address is not null then 'op_' || lower(hex(randomblob(16))) end`,
    createdAt: now,
  });
  const operation = selectedRow(onchainOperations, {
    id: sql`o.operation_id`,
    tenantId: sql`o.tenant_id`,
    kind: sql`case when o.xp > 0 then 'opening_mint' else 'opening_burn' end`,
    status: 'queued',
    chainId: asset.chainId,
    onchainAssetId: sql`o.onchain_asset_id`,
    internalTransactionId: null,
    redemptionId: null,
    dependsOnOperationId: null,
    recipient: sql`w.address`,
    amount: sql`abs(o.xp) || substr(${ZEROS}, 1, ${asset.decimals ?? 0})`,
    ...UNSENT_XP_OPERATION,
    createdAt: now,
    updatedAt: now,
  });
  const customersInScope = sql`(select c.tenant_id, c.id, w.address, ${unmirroredXp(asset.id)} as xp from ${customers} c ${wallet}
    where c.tenant_id = ${asset.tenantId} and ${inScope(scope)}) x`;
  return [
    // `where true`: SQLite reads an INSERT ... SELECT's ON CONFLICT as the select's join constraint without one.
    db.insert(o).select(db.select(opening).from(customersInScope).where(sql`true`)).onConflictDoNothing(),
    db.insert(onchainOperations).select(
      db
        .select(operation)
        .from(sql`${o} o join ${customers} c on c.id = o.user_id and c.tenant_id = o.tenant_id ${wallet}`)
        .where(sql`o.onchain_asset_id = ${asset.id} and o.epoch = ${epoch} and o.operation_id is not null and ${inScope(scope)}
          and not exists (select 1 from ${onchainOperations} p where p.id = o.operation_id)`),
    ),
  ] as const;
}

/** The queued operations of the openings in `scope`: to hand to the settlement queue. */
export function queuedOpeningOperations(db: Database, asset: OnchainAsset, scope: Scope) {
  return db.select({ id: onchainOperations.id }).from(xpTokenOpenings)
    .innerJoin(customers, eq(customers.id, xpTokenOpenings.userId))
    .innerJoin(onchainOperations, eq(onchainOperations.id, xpTokenOpenings.operationId))
    .where(and(
      eq(xpTokenOpenings.onchainAssetId, asset.id),
      eq(xpTokenOpenings.epoch, asset.openingEpoch),
      eq(onchainOperations.status, 'queued'),
      'userId' in scope ? eq(customers.id, scope.userId) : and(gt(customers.seq, scope.fromSeq), sql`${customers.seq} <= ${scope.toSeq}`),
    ));
}

/** Moves the cursor forward to `toSeq` (never back: a concurrent run may have gone further), completing the opening when `last`. */
export function advanceOpening(db: Database, asset: OnchainAsset, toSeq: number, last: boolean) {
  return db.update(onchainAssets)
    .set({ openingCursor: sql`max(coalesce(${onchainAssets.openingCursor}, 0), ${toSeq})`, ...(last ? { openingCompletedAt: sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` } : {}) })
    .where(and(eq(onchainAssets.id, asset.id), eq(onchainAssets.openingEpoch, asset.openingEpoch)));
}

/** A customer's opening for the token's current epoch, with the status of its operation. */
export async function openingOf(db: Database, asset: OnchainAsset, userId: string) {
  const [row] = await db
    .select({ id: xpTokenOpenings.id, operationId: xpTokenOpenings.operationId, status: onchainOperations.status })
    .from(xpTokenOpenings)
    .leftJoin(onchainOperations, eq(onchainOperations.id, xpTokenOpenings.operationId))
    .where(and(eq(xpTokenOpenings.onchainAssetId, asset.id), eq(xpTokenOpenings.userId, userId), eq(xpTokenOpenings.epoch, asset.openingEpoch)))
    .limit(1);
  return row;
}

/** The opening an `opening_*` operation carries: its epoch and XP, for a registered token's first opening. */
export async function openingOfOperation(db: Database, operationId: string) {
  const [row] = await db.select({ epoch: xpTokenOpenings.epoch, xp: xpTokenOpenings.xp }).from(xpTokenOpenings).where(eq(xpTokenOpenings.operationId, operationId)).limit(1);
  return row;
}

/** The customer whose XP entry a burn mirrors. */
export async function customerOfEntry(db: Database, tenantId: string, internalTransactionId: string) {
  const [row] = await db.select({ userId: internalTransactions.userId }).from(internalTransactions)
    .where(and(eq(internalTransactions.id, internalTransactionId), eq(internalTransactions.tenantId, tenantId))).limit(1);
  return row?.userId ?? null;
}

/**
 * Makes a queued burn wait for the customer's opening, only while that opening is still on its
 * way (decided in the statement, so an opening that settles meanwhile never strands the burn): its
 * success queues the burn again (data/settlement-outcomes.ts). True when the burn now waits.
 */
export async function waitForOpening(db: Database, burnId: string, openingOperationId: string): Promise<boolean> {
  const pending = db.select({ one: sql`1` }).from(onchainOperations)
    .where(and(eq(onchainOperations.id, openingOperationId), inArray(onchainOperations.status, ['queued', 'submitted'])));
  const rows = await db.update(onchainOperations).set({ status: 'waiting', dependsOnOperationId: openingOperationId, updatedAt: sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` })
    .where(and(eq(onchainOperations.id, burnId), eq(onchainOperations.status, 'queued'), exists(pending)))
    .returning({ id: onchainOperations.id });
  return rows.length > 0;
}

/** Writes what an opening mint really moves (a registered token's holders keep what they held). */
export async function setOpeningAmount(db: Database, operationId: string, amount: string): Promise<void> {
  await db.update(onchainOperations).set({ amount }).where(and(eq(onchainOperations.id, operationId), isNull(onchainOperations.nonce)));
}
