import type { Database } from '../db/client';
import { violatesUnique } from '../data/db-errors';
import { deleteTierIfUnreferenced, eligibilityFacts, insertTierQuery, replaceTier, tenantBriefQuery, tierPageQueries, type TierValues } from '../data/tiers';
import { isEligibleForTier } from '../domain/tiers';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { pageOf, type Page } from '../lib/paging';
import type { TierInput, TierListQuery, TierRuleView } from '../schemas/tier';
import { toTierRuleView } from '../views/tier';
import { applyTenantRecomputes } from './cohort-recomputes';

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
export async function listTiers(db: Database, tenantId: string, query: TierListQuery): Promise<Page<TierRuleView>> {
  const [rows, [total], tenant] = await db.batch([...tierPageQueries(db, tenantId, { tierName: query.tier_name }, query), tenantBriefQuery(db, tenantId)]);
  const brief = tenantOf(tenant);
  return pageOf(rows.map((tier) => toTierRuleView(tier, brief)), total?.value ?? 0, query);
}

export async function createTier(db: Database, tenantId: string, input: TierInput): Promise<TierRuleView> {
  const [[tier], tenant] = await db
    .batch([insertTierQuery(db, tenantId, newId('tier'), valuesOf(input)), tenantBriefQuery(db, tenantId)])
    .catch((error: unknown) => nameTaken(error, input.tier_name));
  if (!tier) throw new Error('tier insert returned nothing');
  await applyTenantRecomputes(db, tenantId);
  return toTierRuleView(tier, tenantOf(tenant));
}

/**
 * PUT semantics: every field is replaced. Tier writes re-evaluate the cohorts reading `tier` for the
 * customers whose tier can have changed (migrations/0004, applied in chunks: services/cohort-recomputes.ts).
 */
export async function updateTier(db: Database, tenantId: string, id: string, input: TierInput): Promise<void> {
  const replaced = await replaceTier(db, tenantId, id, valuesOf(input)).catch((error: unknown) => nameTaken(error, input.tier_name));
  if (!replaced) throw ApiError.notFound('Tier');
  await applyTenantRecomputes(db, tenantId);
}

/** A tier that a reward still requires (`min_tier_id`) is kept: 409 until the reward moves on. */
export async function deleteTier(db: Database, tenantId: string, id: string): Promise<void> {
  const { found, rewardReferences } = await deleteTierIfUnreferenced(db, tenantId, id);
  if (!found) throw ApiError.notFound('Tier');
  if (rewardReferences > 0) {
    throw new ApiError('CONFLICT', `The tier is the minimum tier of ${rewardReferences} reward(s); change or delete them first`);
  }
  await applyTenantRecomputes(db, tenantId);
}

/** `lifetime_xp >= min_xp_threshold`; an unknown customer or tier (or another tenant's) is a 404. */
export async function checkTierEligibility(db: Database, tenantId: string, userId: string, tierId: string): Promise<{ eligible: boolean }> {
  const { customer, tier } = await eligibilityFacts(db, tenantId, userId, tierId);
  if (!customer) throw ApiError.notFound('Customer');
  if (!tier) throw ApiError.notFound('Tier');
  return { eligible: isEligibleForTier(customer.lifetimeXp, tier.minXpThreshold) };
}
