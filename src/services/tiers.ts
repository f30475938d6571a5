import { violatesUnique } from '../data/db-errors';
import { namedBatch } from '../data/named-batch';
import { deleteTierIfUnreferenced, eligibilityFacts, insertTierQuery, replaceTier, tenantBriefQuery, tierPageQueries, type TierValues } from '../data/tiers';
import { isEligibleForTier } from '../domain/tiers';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { pageOf, type Page } from '../lib/paging';
import { isoNow } from '../lib/time';
import type { TierInput, TierListQuery, TierRuleView } from '../schemas/tier';
import { toTierRuleView } from '../views/tier';
import { applyTenantRecomputes } from './cohort-recomputes';
import type { ServiceContext } from './context';

function valuesOf(input: TierInput): TierValues {
  return {
    tierName: input.tier_name,
    minXpThreshold: input.min_xp_threshold,
    benefitsDescription: input.benefits_description,
    color: input.color,
    icon: input.icon,
  };
}

/** The unique index on (tenant, tier_name) is the one judge of name clashes, races included. */
function nameTaken(error: unknown, tierName: string): never {
  if (violatesUnique(error, 'tier_rules.tier_name')) {
    throw new ApiError('CONFLICT', `A tier named "${tierName}" already exists`, { path: 'tier_name' });
  }
  throw error;
}

function tenantOf<T>(rows: T[]): T {
  const [tenant] = rows;
  if (!tenant) throw new Error('tenant of a tenant-scoped request not found');
  return tenant;
}

/** Lowest threshold first (the ladder order), optionally only the tier with an exact name. */
export async function listTiers({ db, tenantId }: ServiceContext, query: TierListQuery): Promise<Page<TierRuleView>> {
  const { page, tenant } = await namedBatch(db, { page: tierPageQueries(db, tenantId, { tierName: query.tier_name }, query), tenant: tenantBriefQuery(db, tenantId) });
  const [rows, [total]] = page;
  const brief = tenantOf(tenant);
  return pageOf(rows.map((tier) => toTierRuleView(tier, brief)), total?.value ?? 0, query);
}

export async function createTier(ctx: ServiceContext, input: TierInput): Promise<TierRuleView> {
  const { db, tenantId } = ctx;
  const [[tier], tenant] = await db
    .batch([insertTierQuery(db, tenantId, newId('tier'), valuesOf(input), isoNow(ctx.now())), tenantBriefQuery(db, tenantId)])
    .catch((error: unknown) => nameTaken(error, input.tier_name));
  if (!tier) throw new Error('tier insert returned nothing');
  await applyTenantRecomputes(ctx);
  return toTierRuleView(tier, tenantOf(tenant));
}

/**
 * PUT semantics: every field is replaced. Tier writes re-evaluate the cohorts reading `tier` for the
 * customers whose tier can have changed (src/db/sql/cohort-membership.sql, applied in chunks: services/cohort-recomputes.ts).
 */
export async function updateTier(ctx: ServiceContext, id: string, input: TierInput): Promise<void> {
  const replaced = await replaceTier(ctx.db, ctx.tenantId, id, valuesOf(input), isoNow(ctx.now())).catch((error: unknown) => nameTaken(error, input.tier_name));
  if (!replaced) throw ApiError.notFound('Tier');
  await applyTenantRecomputes(ctx);
}

/**
 * A tier that a reward still requires (`min_tier_id`) is kept: 409 until the reward moves on. So
 * is a tier customers hold until their review (tiers on earned_in_period): deleting it would lower
 * them before it.
 */
export async function deleteTier(ctx: ServiceContext, id: string): Promise<void> {
  const { found, rewardReferences, holders } = await deleteTierIfUnreferenced(ctx.db, ctx.tenantId, id);
  if (!found) throw ApiError.notFound('Tier');
  if (rewardReferences > 0) {
    throw new ApiError('CONFLICT', `The tier is the minimum tier of ${rewardReferences} reward(s); change or delete them first`);
  }
  if (holders > 0) {
    throw new ApiError('CONFLICT', `${holders} customer(s) hold the tier until their review; it can be deleted once no one holds it`);
  }
  await applyTenantRecomputes(ctx);
}

/**
 * `lifetime_xp >= min_xp_threshold`, or under earned_in_period the held tier's threshold against it;
 * an unknown customer or tier (or another tenant's) is a 404.
 */
export async function checkTierEligibility({ db, tenantId }: ServiceContext, input: { userId: string; tierId: string }): Promise<{ eligible: boolean }> {
  const { customer, tier } = await eligibilityFacts(db, tenantId, input.userId, input.tierId);
  if (!customer) throw ApiError.notFound('Customer');
  if (!tier) throw ApiError.notFound('Tier');
  return { eligible: isEligibleForTier(customer.tierStandingXp, tier.minXpThreshold) };
}
