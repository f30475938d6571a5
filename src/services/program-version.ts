import { isRulesChanged } from '../data/earning-evaluation';
import { cachedRules, loadRules, type TenantRules } from '../data/rule-cache';
import { lotTimes, type LotTimes } from '../data/point-lots';
import { lotTerms } from '../domain/point-terms';
import { DEFAULT_PROGRAM_SETTINGS } from '../domain/program-settings';
import { isoNow } from '../lib/time';
import type { ServiceContext } from './context';

/** Reads of the rules after a version refusal before giving up (a tenant editing rules in a loop). */
const MAX_RELOADS = 3;

/**
 * What a credit assumes of a tenant this isolate has not read yet: never configured (version 0: no
 * rule and no settings ever saved), so a credit of such a tenant costs no read. The batch's guard
 * confirms it like any cached version; a configured tenant is read then.
 */
const NEVER_CONFIGURED: TenantRules = { version: 0, timezone: DEFAULT_PROGRAM_SETTINGS.timezone, settings: DEFAULT_PROGRAM_SETTINGS, byType: new Map() };

/** Thrown by a read that found the cached rules stale; handled like the guard's refusal. */
export class StaleRules extends Error {}

/**
 * Runs `work` on the tenant's rules and settings as this isolate cached them (data/rule-cache.ts),
 * reading them again while its batch, led by `rulesVersionGuard`, finds them stale. An event reads
 * them first when the isolate has none (a tenant with events has rules).
 */
export function withRules<T>(ctx: ServiceContext, work: (rules: TenantRules) => Promise<T>): Promise<T> {
  return confirmed(ctx, cachedRules(ctx.tenantId), work);
}

/**
 * The same for a credit, which needs only the settings: without a cached copy it assumes the
 * tenant NEVER_CONFIGURED, which its batch's guard confirms (one round trip) or refutes.
 */
export function withProgram<T>(ctx: ServiceContext, work: (rules: TenantRules) => Promise<T>): Promise<T> {
  return confirmed(ctx, cachedRules(ctx.tenantId) ?? NEVER_CONFIGURED, work);
}

async function confirmed<T>(ctx: ServiceContext, cached: TenantRules | undefined, work: (rules: TenantRules) => Promise<T>): Promise<T> {
  let rules = cached ?? (await loadRules(ctx.db, ctx.tenantId));
  for (let reloads = 0; ; reloads++) {
    try {
      return await work(rules);
    } catch (error) {
      if (!(error instanceof StaleRules || isRulesChanged(error)) || reloads >= MAX_RELOADS) throw error;
      rules = await loadRules(ctx.db, ctx.tenantId);
    }
  }
}

/** The times of a lot credited at `now` under the cached settings (expiring at `expiry` when given). */
export function creditTimes(rules: TenantRules, now: Date, expiry?: Date): LotTimes {
  return lotTimes(lotTerms(now, rules.settings, expiry), isoNow(now));
}
