import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { programSettings, tierReviewChunk } from '../db/schema';
import type { ReviewDate } from '../domain/tier-reviews';
import { reusable, type Slots } from './reusable-statements';

/**
 * Tiers on XP earned in a period (docs/POINTS.md; src/db/sql/tier-retention.sql does the upgrades
 * and decides each review): the tenant's review dates, customers moving between a tier placed by
 * lifetime XP and a held one when the tenant changes basis, and the review job's chunk.
 */

type Calendar = { tenantId: string; now: string; dates: string };

const forgetFutureDates = reusable((db, $: Slots<Calendar>) =>
  db.run(sql`DELETE FROM tier_review_dates WHERE tenant_id = ${$.tenantId} AND review_at >= ${$.now}`),
);

const writeDates = reusable((db, $: Slots<Calendar>) =>
  db.run(sql`INSERT INTO tier_review_dates (tenant_id, review_at, window_start)
    SELECT ${$.tenantId}, json_extract(j.value, '$.reviewAt'), json_extract(j.value, '$.windowStart') FROM json_each(${$.dates}) j`),
);

const EARNED = sql.raw(`'earned_in_period'`);

// Leaving lifetime XP: everyone keeps the tier lifetime XP gave them until the first review whose
// period starts after now. Both statements run after the settings are saved, in their batch, and
// act on what was saved, so two saves at once leave customers as the last one says. The tenant is
// the saved row's, or none: the index (tenant_id, tier_held) is sought only when there is work.
const holdTiers = reusable((db, $: Slots<Calendar>) =>
  db.run(sql`UPDATE customers SET tier_held = 1,
      tier_id = (SELECT t.tier_id FROM tier_placements t WHERE t.tenant_id = customers.tenant_id AND t.min_xp_threshold <= customers.lifetime_xp
        AND (t.below_lifetime_xp IS NULL OR customers.lifetime_xp < t.below_lifetime_xp)),
      tier_valid_until = CASE WHEN EXISTS (SELECT 1 FROM tier_placements t WHERE t.tenant_id = customers.tenant_id
          AND t.min_xp_threshold > 0 AND t.min_xp_threshold <= customers.lifetime_xp)
        THEN (SELECT min(r.review_at) FROM tier_review_dates r WHERE r.tenant_id = customers.tenant_id AND r.window_start >= ${$.now}) END
    WHERE customers.tenant_id = (SELECT s.tenant_id FROM program_settings s WHERE s.tenant_id = ${$.tenantId} AND s.tiers_basis = ${EARNED})
      AND customers.tier_held = 0`),
);

// Back to lifetime XP: the tier is placed by lifetime XP again, at once.
const placeTiers = reusable((db, $: Slots<Calendar>) =>
  db.run(sql`UPDATE customers SET tier_held = 0, tier_id = NULL, tier_valid_until = NULL
    WHERE customers.tenant_id = (SELECT s.tenant_id FROM program_settings s WHERE s.tenant_id = ${$.tenantId} AND s.tiers_basis <> ${EARNED})
      AND customers.tier_held = 1`),
);

/**
 * After the settings are saved, in their batch: the review dates ahead replaced by `dates`, and
 * every customer moved to how the saved settings decide tiers.
 */
export function tierBasisStatements(db: Database, tenantId: string, now: string, dates: readonly ReviewDate[]) {
  const calendar = { tenantId, now, dates: JSON.stringify(dates) };
  return [forgetFutureDates(db, calendar), writeDates(db, calendar), holdTiers(db, calendar), placeTiers(db, calendar)] as const;
}

/** The tenants on earned_in_period whose review dates run out before `horizon` (or whose period parts are not derived yet). */
export function calendarsRunningOutQuery(db: Database, horizon: string) {
  return db
    .select()
    .from(programSettings)
    .where(
      sql`${programSettings.tiersBasis} = ${EARNED} AND (${programSettings.tiersPeriodMonths} IS NULL
        OR coalesce((SELECT max(r.window_start) FROM tier_review_dates r WHERE r.tenant_id = ${programSettings.tenantId}), '') < ${horizon})`,
    );
}

/** Writes the period's parts for the review job when a tenant's row predates them (saved before migration 0022). */
export function tierPeriodPartsStatement(db: Database, tenantId: string, parts: { tiersPeriodMonths: number | null; tiersPeriodSeconds: number | null }) {
  return db.update(programSettings).set(parts).where(eq(programSettings.tenantId, tenantId));
}

type Review = { now: string; size: number };

const stageDueReviews = reusable((db, $: Slots<Review>) =>
  db.run(sql`INSERT INTO tier_review_chunk (customer_id, tier_id, valid_until)
    SELECT customer_id, tier_after, valid_until FROM customer_tier_reviews WHERE review_at <= ${$.now}
    ORDER BY review_at LIMIT CAST(${$.size} AS INTEGER)`),
);

const applyReviews = reusable((db, $: Slots<Review>) =>
  db.run(sql`UPDATE customers SET updated_at = ${$.now},
      tier_id = (SELECT k.tier_id FROM tier_review_chunk k WHERE k.customer_id = customers.id),
      tier_valid_until = (SELECT k.valid_until FROM tier_review_chunk k WHERE k.customer_id = customers.id)
    WHERE customers.id IN (SELECT customer_id FROM tier_review_chunk)`),
);

/**
 * One chunk of reviews due by `now`, at most `size` customers, in one batch (one transaction, so
 * concurrent runs never review a customer twice): each customer's tier and next review as
 * `customer_tier_reviews` decides. The last result lists the customers reviewed.
 */
export function reviewBatch(db: Database, now: string, size: number) {
  const run = { now, size };
  return [stageDueReviews(db, run), applyReviews(db, run), db.delete(tierReviewChunk).returning({ customerId: tierReviewChunk.customerId })] as const;
}
