/**
 * Tier rules (CONTRACT.md, XP ledger): a customer's tier is the tier with the highest
 * `min_xp_threshold` not above `lifetime_xp`; eligibility for a tier is `lifetime_xp >= threshold`.
 * The database holds the same placement once, for every trigger and for the ladder the API reads
 * (view `tier_placements`, src/db/sql/tier-placement.sql, which also settles equal thresholds).
 */
export function isEligibleForTier(lifetimeXp: number, minXpThreshold: number): boolean {
  return lifetimeXp >= minXpThreshold;
}

export function tierForLifetimeXp<T extends { minXpThreshold: number }>(lifetimeXp: number, tiers: readonly T[]): T | undefined {
  return tiers
    .filter((tier) => isEligibleForTier(lifetimeXp, tier.minXpThreshold))
    .reduce<T | undefined>((best, tier) => (best === undefined || tier.minXpThreshold > best.minXpThreshold ? tier : best), undefined);
}
