import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { earningRules, earningRuleVersions } from '../db/schema';
import { compileRule, inEvaluationOrder, type CompiledRule } from '../domain/earning-plan';
import type { RuleConditions, RuleEffect, RuleLimits, RuleMultiplier } from '../domain/earning-rules';
import type { ProgramSettings } from '../domain/program-settings';
import { BoundedMap } from '../lib/bounded-map';
import { namedBatch } from './named-batch';
import { programSettingsOf, programSettingsQuery } from './program-settings';

/**
 * A tenant's earning rules as this isolate last read them, with the version they were read at
 * (earning_rule_versions, bumped by a trigger on every change: src/db/sql/earning-rules.sql). An
 * event is evaluated from here without reading a rule, and its batch is led by a guard that
 * refuses a stale version (data/earning-evaluation.ts rulesVersionGuard): the caller then reads the
 * rules again and re-runs it. So a change is seen by the next event at every location, as a revoked
 * API key is (docs/GATEWAY-AUTH.md), and nothing cached is trusted unconfirmed. The tenant's
 * program settings come with them under the same version: every credit's lot times are read here
 * (services/program-version.ts), so a settings change applies to the next credit anywhere.
 */
export type TenantRules = {
  version: number;
  timezone: string;
  settings: ProgramSettings;
  /** Every rule of the tenant by event type, in evaluation order (paused and archived ones too: `simulate` lists them). */
  byType: ReadonlyMap<string, readonly CompiledRule[]>;
};

const MAX_TENANTS = 1_000;
const cache = new BoundedMap<string, TenantRules>(MAX_TENANTS);

export function cachedRules(tenantId: string): TenantRules | undefined {
  return cache.get(tenantId);
}

/** Reads the tenant's rules, version and settings in one read batch (one snapshot), and caches them. */
export async function loadRules(db: Database, tenantId: string): Promise<TenantRules> {
  const { version, settings, rules } = await namedBatch(db, {
    version: db.select({ version: earningRuleVersions.version }).from(earningRuleVersions).where(eq(earningRuleVersions.tenantId, tenantId)),
    settings: programSettingsQuery(db, tenantId),
    rules: db.select().from(earningRules).where(eq(earningRules.tenantId, tenantId)),
  });
  const compiled = rules.map((rule) => ({
    ...compileRule({
      id: rule.id,
      name: rule.name,
      eventType: rule.eventType,
      status: rule.status,
      priority: rule.priority,
      stackable: rule.stackable,
      conditions: rule.conditions as RuleConditions,
      effect: rule.effect as RuleEffect,
      multipliers: rule.multipliers as RuleMultiplier[],
      limits: (rule.limits as RuleLimits).per_customer,
      startsAt: rule.startsAt,
      endsAt: rule.endsAt,
    }),
    createdAt: rule.createdAt,
  }));
  const byType = new Map<string, CompiledRule[]>();
  for (const rule of inEvaluationOrder(compiled)) byType.set(rule.eventType, [...(byType.get(rule.eventType) ?? []), rule]);
  const program = programSettingsOf(settings).settings;
  const entry: TenantRules = { version: version[0]?.version ?? 0, timezone: program.timezone, settings: program, byType };
  cache.set(tenantId, entry);
  return entry;
}
