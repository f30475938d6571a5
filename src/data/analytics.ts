import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, lte, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { customers, redemptions, rewards, tenantCounts, type CountSubject } from '../db/schema';
import { ACTIVE_FAN_STATUSES, type Period } from '../domain/analytics';
import { refundedRedemptionStatuses } from '../domain/redemption-status';

export type Ranking = Period & { limit: number };

const counted = sql<number>`count(*)`.mapWith(Number);

/** The period's inclusive bounds on an ISO timestamp column (ISO strings compare in time order). */
function within(column: SQLiteColumn, period: Period): SQL | undefined {
  return and(period.from ? gte(column, period.from) : undefined, period.to ? lte(column, period.to) : undefined);
}

/**
 * Rewards by number of redemptions that stand (not failed or canceled) in the period, highest
 * first, ties by title; plus the total those shares are of. Aggregated in D1, one round trip.
 */
export async function rankRewards(db: Database, tenantId: string, ranking: Ranking) {
  if (!ranking.from && !ranking.to) return rankRewardsAllTime(db, tenantId, ranking.limit);
  const where = and(
    eq(redemptions.tenantId, tenantId),
    notInArray(redemptions.status, [...refundedRedemptionStatuses]),
    within(redemptions.createdAt, ranking),
  );
  const [rows, [total]] = await db.batch([
    db
      .select({ reward: rewards, redemptionCount: counted })
      .from(redemptions)
      .innerJoin(rewards, and(eq(rewards.id, redemptions.rewardId), eq(rewards.tenantId, tenantId)))
      .where(where)
      .groupBy(rewards.id)
      .orderBy(desc(sql`count(*)`), asc(rewards.title), asc(rewards.id))
      .limit(ranking.limit),
    db.select({ value: count() }).from(redemptions).where(where),
  ]);
  return { rows, total: total?.value ?? 0 };
}

/**
 * Countries by active fans (customers active or reinstated, created in the period), highest first,
 * ties by code; the total counts every active fan, with or without a country.
 */
export async function rankCountries(db: Database, tenantId: string, ranking: Ranking) {
  if (!ranking.from && !ranking.to) return rankCountriesAllTime(db, tenantId, ranking.limit);
  const where = and(
    eq(customers.tenantId, tenantId),
    inArray(customers.status, [...ACTIVE_FAN_STATUSES]),
    within(customers.createdAt, ranking),
  );
  const [rows, [total]] = await db.batch([
    db
      .select({ countryCode: customers.countryCode, fans: counted })
      .from(customers)
      .where(and(where, isNotNull(customers.countryCode)))
      .groupBy(customers.countryCode)
      .orderBy(desc(sql`count(*)`), asc(customers.countryCode))
      .limit(ranking.limit),
    db.select({ value: count() }).from(customers).where(where),
  ]);
  const ranked = rows.flatMap((row) => (row.countryCode === null ? [] : [{ countryCode: row.countryCode, fans: row.fans }]));
  return { rows: ranked, total: total?.value ?? 0 };
}

/** The maintained counts of one subject (src/db/sql/list-positions-and-counts.sql): a row per reward or country, never per customer. */
const countsOf = (tenantId: string, subject: CountSubject) => and(eq(tenantCounts.tenantId, tenantId), eq(tenantCounts.subject, subject));
const countedTotal = sql<number>`coalesce(sum(${tenantCounts.value}), 0)`.mapWith(Number);

/** rankRewards without a period, from the standing redemptions counted per reward: reads one row per reward. */
async function rankRewardsAllTime(db: Database, tenantId: string, limit: number) {
  const counts = countsOf(tenantId, 'standing_redemptions');
  const [rows, [total]] = await db.batch([
    db
      .select({ reward: rewards, redemptionCount: tenantCounts.value })
      .from(tenantCounts)
      .innerJoin(rewards, and(eq(rewards.tenantId, tenantId), eq(rewards.id, tenantCounts.bucket)))
      .where(and(counts, gt(tenantCounts.value, 0)))
      .orderBy(desc(tenantCounts.value), asc(rewards.title), asc(rewards.id))
      .limit(limit),
    db.select({ value: countedTotal }).from(tenantCounts).where(counts),
  ]);
  return { rows, total: total?.value ?? 0 };
}

/** rankCountries without a period, from the active fans counted per country ('' counts those without one). */
async function rankCountriesAllTime(db: Database, tenantId: string, limit: number) {
  const counts = countsOf(tenantId, 'active_fans');
  const [rows, [total]] = await db.batch([
    db
      .select({ countryCode: tenantCounts.bucket, fans: tenantCounts.value })
      .from(tenantCounts)
      .where(and(counts, ne(tenantCounts.bucket, ''), gt(tenantCounts.value, 0)))
      .orderBy(desc(tenantCounts.value), asc(tenantCounts.bucket))
      .limit(limit),
    db.select({ value: countedTotal }).from(tenantCounts).where(counts),
  ]);
  return { rows, total: total?.value ?? 0 };
}
