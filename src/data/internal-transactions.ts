import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import {
  blockchainTransactionLinks,
  blockchainTransactions,
  customers,
  internalTransactions,
  onchainAssets,
  redemptions,
  rewards,
  type BlockchainTransaction,
  type InternalTransaction,
  type OnchainAsset,
  type TransactionStatus,
  type TransactionType,
} from '../db/schema';
import type { PageParams } from '../lib/paging';
import { namedBatch } from './named-batch';
import { reusable, reusableList, type Bound, type Slots } from './reusable-statements';
import { ownedBy } from './scoping';
import { listTotalQuery, newestFirstPage } from './tenant-counts';

/**
 * D1 batches return rows as objects, so two selected columns with one SQL name collapse: alias them.
 *
 * The statements that load what hangs off the transactions selected by `txWhere` (assets, rewards
 * of redeem rows, blockchain transactions), to be run as one named group of a batch with the
 * caller's own query (`namedBatch`); `attachDetails` reads the group's results.
 */
export function detailQueries(db: Database, tenantId: Bound<string>, txWhere: SQL) {
  const selected = db.select({ id: internalTransactions.id }).from(internalTransactions).where(txWhere);
  return [
    db
      .select()
      .from(onchainAssets)
      .where(
        and(
          ownedBy(onchainAssets.tenantId, tenantId),
          inArray(onchainAssets.id, db.select({ id: internalTransactions.onchainAssetId }).from(internalTransactions).where(txWhere)),
        ),
      ),
    db
      .select({ redemptionId: sql<string>`${redemptions.id}`.as('redemption_id'), id: rewards.id, title: rewards.title })
      .from(redemptions)
      .innerJoin(rewards, and(eq(rewards.id, redemptions.rewardId), eq(rewards.tenantId, tenantId)))
      .where(
        and(
          ownedBy(redemptions.tenantId, tenantId),
          inArray(redemptions.id, db.select({ id: internalTransactions.redemptionId }).from(internalTransactions).where(txWhere)),
        ),
      ),
    db
      .select({ internalTransactionId: blockchainTransactionLinks.internalTransactionId, chainTx: blockchainTransactions })
      .from(blockchainTransactionLinks)
      .innerJoin(
        blockchainTransactions,
        and(eq(blockchainTransactions.id, blockchainTransactionLinks.blockchainTransactionId), eq(blockchainTransactions.tenantId, tenantId)),
      )
      .where(and(eq(blockchainTransactionLinks.tenantId, tenantId), inArray(blockchainTransactionLinks.internalTransactionId, selected)))
      .orderBy(asc(blockchainTransactions.createdAt)),
  ] as const;
}

type Queries = ReturnType<typeof detailQueries>;
export type DetailRows = readonly [Awaited<Queries[0]>, Awaited<Queries[1]>, Awaited<Queries[2]>];

/** What hangs off one transaction, for its view (src/views/internal-transaction.ts). */
export type InternalTransactionDetails = {
  asset?: OnchainAsset;
  reward?: { id: string; title: string };
  blockchainTransactions: BlockchainTransaction[];
};

export function attachDetails(tx: InternalTransaction, [assets, rewardRows, chainRows]: DetailRows): InternalTransactionDetails {
  return {
    asset: assets.find((asset) => asset.id === tx.onchainAssetId),
    reward: rewardRows.filter((row) => row.redemptionId === tx.redemptionId).map(({ id, title }) => ({ id, title }))[0],
    blockchainTransactions: chainRows.filter((row) => row.internalTransactionId === tx.id).map((row) => row.chainTx),
  };
}

/** The customers behind the transactions selected by `txWhere` (for the portal's user brief). */
export function customerQuery(db: Database, tenantId: Bound<string>, txWhere: SQL) {
  return db
    .select({ id: customers.id, username: customers.username, email: customers.email })
    .from(customers)
    .where(
      and(
        ownedBy(customers.tenantId, tenantId),
        inArray(customers.id, db.select({ id: internalTransactions.userId }).from(internalTransactions).where(txWhere)),
      ),
    );
}

type ById = Slots<{ id: string; tenantId: string }>;
const byId = ($: ById) => and(eq(internalTransactions.id, $.id), eq(internalTransactions.tenantId, $.tenantId))!;
const transactionById = reusable((db, $: ById) => db.select().from(internalTransactions).where(byId($)).limit(1));
const detailsById = reusableList((db, $: ById) => detailQueries(db, $.tenantId, byId($)));
const customerById = reusable((db, $: ById) => customerQuery(db, $.tenantId, byId($)));

/**
 * One transaction of the tenant with its details, and with its customer when `withCustomer` (the
 * portal's user brief; the gateway shows none, so reads none), in one D1 round trip.
 */
export async function findInternalTransaction(db: Database, tenantId: string, id: string, withCustomer: boolean) {
  const ids = { id, tenantId };
  const { rows, details, customerRows } = await namedBatch(db, {
    rows: transactionById(db, ids),
    details: detailsById(db, ids),
    customerRows: withCustomer ? customerById(db, ids) : undefined,
  });
  const [tx] = rows;
  return tx && { tx, details: attachDetails(tx, details), customer: customerRows?.[0] };
}

export type TransactionFilters = { type?: TransactionType; status?: TransactionStatus; userId?: string };

/**
 * A page of the tenant's transactions, newest first, with the total, their details and customers,
 * in one D1 round trip: every statement selects the page through the same id subquery. Type and
 * status are maintained counts; a customer's transactions are counted on its own index.
 */
export async function listInternalTransactionRows(db: Database, tenantId: string, filters: TransactionFilters, params: PageParams) {
  const ofCustomer = filters.userId ? eq(internalTransactions.userId, filters.userId) : undefined;
  const filter = and(
    filters.type ? eq(internalTransactions.type, filters.type) : undefined,
    filters.status ? eq(internalTransactions.status, filters.status) : undefined,
    ofCustomer,
  );
  const page = newestFirstPage(db, internalTransactions, tenantId, filter, params);
  const pageIds = db.select({ id: internalTransactions.id }).from(internalTransactions).where(page.where).orderBy(page.orderBy).limit(params.limit).offset(page.offset);
  const onPage = and(ownedBy(internalTransactions.tenantId, tenantId), inArray(internalTransactions.id, pageIds))!;
  const { rows, total: [total], details, customerRows } = await namedBatch(db, {
    rows: db.select().from(internalTransactions).where(onPage).orderBy(desc(internalTransactions.seq)),
    total: listTotalQuery(db, internalTransactions, 'internal_transactions', tenantId, {
      bucket: { type: filters.type, status: filters.status },
      live: ofCustomer && and(eq(internalTransactions.tenantId, tenantId), filter),
    }),
    details: detailQueries(db, tenantId, onPage),
    customerRows: customerQuery(db, tenantId, onPage),
  });
  const items = rows.map((tx) => ({
    tx,
    details: attachDetails(tx, details),
    customer: customerRows.find((customer) => customer.id === tx.userId),
  }));
  return { items, total: total?.value ?? 0 };
}

/** One blockchain transaction of the tenant (the resource of `onchain.transaction.*` webhook events). */
export async function findBlockchainTransaction(db: Database, tenantId: string, id: string) {
  const [row] = await db
    .select()
    .from(blockchainTransactions)
    .where(and(eq(blockchainTransactions.tenantId, tenantId), eq(blockchainTransactions.id, id)));
  return row;
}
