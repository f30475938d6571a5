import { and, eq, exists, gte, inArray, isNotNull, isNull, notExists, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { customers, internalTransactions, redemptionGuard, redemptions, rewards, tenants, tierRules, type Redemption, type Reward } from '../db/schema';
import { EARNING_STATUSES } from '../domain/ledger';
import { tierStandingXp } from './customer-tiers';
import { ONE_ROW, selectedRow } from './insert-select';
import { completionWhen } from './response-with-write';
import type { RedemptionDetails, RedemptionIds } from './redemptions';
import { reusable, type Slots } from './reusable-statements';

/** The statements of a redemption's write batch, each built once (reusable-statements.ts). */

type GuardValues = RedemptionIds & { redemptionId: string };

/** Aborts the batch it is in (redemption_not_allowed) unless `allowed` finds a row. */
const abortUnless = (db: Database, $: Slots<GuardValues>, allowed: SQLWrapper) =>
  db.insert(redemptionGuard).select(db.select(selectedRow(redemptionGuard, { redemptionId: $.redemptionId })).from(ONE_ROW).where(notExists(allowed)));

/** The customer may spend, the reward is active and the customer reaches its tier (the SQL form of domain/redemptions.ts), and `andAlso`. */
function redemptionAllowed(db: Database, $: Slots<RedemptionIds>, andAlso?: SQL) {
  return db
    .select({ one: sql`1` })
    .from(customers)
    .innerJoin(rewards, and(eq(rewards.id, $.rewardId), eq(rewards.tenantId, $.tenantId)))
    .leftJoin(tierRules, and(eq(tierRules.id, rewards.minTierId), eq(tierRules.tenantId, $.tenantId)))
    .where(
      and(
        eq(customers.id, $.userId),
        eq(customers.tenantId, $.tenantId),
        inArray(customers.status, [...EARNING_STATUSES]),
        eq(rewards.status, 'active'),
        or(isNull(rewards.minTierId), gte(tierStandingXp, tierRules.minXpThreshold)),
        andAlso,
      ),
    );
}

const guardStatement = reusable((db, $: Slots<GuardValues>) => abortUnless(db, $, redemptionAllowed(db, $)));

/**
 * First statement of a redemption's write batch: aborts the batch unless, at that moment, the
 * customer may spend, the reward is active and the customer reaches its tier, so a suspension, an
 * archive or a tier edit cannot race a redemption.
 */
export function redemptionGuardStatement(db: Database, ids: GuardValues) {
  return guardStatement(db, ids);
}

/** What a redemption's statements and view take from an off-chain reward and its tenant. */
export type RewardAsRemembered = { title: string; description: string | null; xpCost: number; tenantName: string; tenantSlug: string };

/**
 * redemptionGuardStatement for a redemption built from a remembered reward (data/reward-cache.ts):
 * it also aborts unless the reward and its tenant still show what was remembered and the reward is
 * still off-chain, so a stale memory can never price, name or deliver a redemption.
 */
export const rememberedRewardGuard = reusable((db, $: Slots<GuardValues & RewardAsRemembered>) => {
  const same = (column: SQLiteColumn, value: SQLWrapper) => sql`${column} is ${value}`;
  const tenantAsRemembered = db
    .select({ one: sql`1` })
    .from(tenants)
    .where(and(eq(tenants.id, $.tenantId), eq(tenants.name, $.tenantName), eq(tenants.slug, $.tenantSlug)));
  const asRemembered = and(
    eq(rewards.title, $.title),
    same(rewards.description, $.description),
    eq(rewards.xpCost, $.xpCost),
    isNull(rewards.onchainAssetId),
    exists(tenantAsRemembered),
  );
  return abortUnless(db, $, redemptionAllowed(db, $, asRemembered));
});

/** Moves a limited reward's stock by `delta` (unlimited stock, null, stays null); never below zero by CHECK. */
export function stockChangeStatement(db: Database, tenantId: string, rewardId: string, delta: 1 | -1) {
  return stockChange(db, { tenantId, rewardId, delta });
}

const stockChange = reusable((db, $: Slots<{ tenantId: string; rewardId: string; delta: number }>) =>
  db
    .update(rewards)
    .set({ stock: sql`${rewards.stock} + ${$.delta}` })
    // Unlimited stock (null) stays null: no row to write.
    .where(and(eq(rewards.id, $.rewardId), eq(rewards.tenantId, $.tenantId), isNotNull(rewards.stock))),
);

/**
 * Records a new redemption of `xpSpent`, settling with its ledger entry `transactionId`: it is
 * `initialized` exactly when the entry is (the entry is written before it, in the same batch).
 */
export const redemptionInsertStatement = reusable((db, $: Slots<Omit<Redemption, 'status' | 'seq'> & { transactionId: string }>) =>
  db.insert(redemptions).values({
    id: $.id,
    tenantId: $.tenantId,
    userId: $.userId,
    rewardId: $.rewardId,
    xpSpent: $.xpSpent,
    createdAt: $.createdAt,
    updatedAt: $.updatedAt,
    status: sql`(select ${internalTransactions.status} from ${internalTransactions} where ${internalTransactions.id} = ${$.transactionId})`,
  }),
);

type RedemptionShown = {
  redemptionId: string;
  tenantId: string;
  title: string;
  description: string | null;
  rewardStatus: Reward['status'];
  xpCost: number;
  onchainAssetId: string | null;
  username: string | null;
  email: string | null;
  tenantName: string;
  tenantSlug: string;
};

/** The values `storedIfRedemptionShows` compares with: what the view rendered from `details` shows. */
export function redemptionShown(redemptionId: string, { reward, customer, tenant }: RedemptionDetails): RedemptionShown {
  return {
    redemptionId, tenantId: tenant.id, title: reward.title, description: reward.description, rewardStatus: reward.status, xpCost: reward.xpCost,
    onchainAssetId: reward.onchainAssetId, username: customer.username, email: customer.email, tenantName: tenant.name, tenantSlug: tenant.slug,
  };
}

/**
 * Stores a response only if, after the redemption's writes in the same batch, the redemption was
 * written `completed` and its reward, customer and tenant still show what `details` (read before
 * the batch) shows, so the view rendered from them before the batch is the redemption's view.
 */
export const storedIfRedemptionShows = completionWhen((db, $: Slots<RedemptionShown>) => {
  const same = (column: SQLiteColumn, value: SQLWrapper) => sql`${column} is ${value}`;
  return exists(
    db
      .select({ one: sql`1` })
      .from(redemptions)
      .innerJoin(rewards, and(eq(rewards.id, redemptions.rewardId), eq(rewards.tenantId, $.tenantId)))
      .innerJoin(customers, and(eq(customers.id, redemptions.userId), eq(customers.tenantId, $.tenantId)))
      .innerJoin(tenants, eq(tenants.id, redemptions.tenantId))
      .where(
        and(
          eq(redemptions.id, $.redemptionId),
          eq(redemptions.tenantId, $.tenantId),
          eq(redemptions.status, 'completed'),
          eq(rewards.title, $.title),
          same(rewards.description, $.description),
          eq(rewards.status, $.rewardStatus),
          eq(rewards.xpCost, $.xpCost),
          same(rewards.onchainAssetId, $.onchainAssetId),
          same(customers.username, $.username),
          same(customers.email, $.email),
          eq(tenants.name, $.tenantName),
          eq(tenants.slug, $.tenantSlug),
        ),
      ),
  );
});

type BriefMarks = { usernameMark: string; emailMark: string };

/**
 * Stores a response rendered before the batch with marks in place of the customer's username and
 * email (a remembered reward's redemption reads no customer), only if the redemption was written
 * `completed`: the marks are replaced, in SQL, by the customer's values as JSON strings (`""` when
 * none, as toUserBrief renders them). The stored body is then what the view of the row shows.
 */
export const storedWithUserBrief = completionWhen(
  (db, $: Slots<{ redemptionId: string; tenantId: string; userId: string } & BriefMarks>) =>
    exists(
      db
        .select({ one: sql`1` })
        .from(redemptions)
        .where(and(eq(redemptions.id, $.redemptionId), eq(redemptions.tenantId, $.tenantId), eq(redemptions.status, 'completed'))),
    ),
  ($) => {
    const field = (column: SQLiteColumn) => sql`(select json_quote(coalesce(${column}, '')) from ${customers} where ${customers.id} = ${$.userId} and ${customers.tenantId} = ${$.tenantId})`;
    return sql`replace(replace(${$.responseBody}, ${$.usernameMark}, ${field(customers.username)}), ${$.emailMark}, ${field(customers.email)})`;
  },
);
