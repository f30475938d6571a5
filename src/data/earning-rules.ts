import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { earningRules, type EarningRuleStatus } from '../db/schema';
import type { RuleConditions, RuleEffect, RuleLimits, RuleMultiplier } from '../domain/earning-rules';
import { offsetOf, type PageParams } from '../lib/paging';
import { ONE_ROW, selectedRow } from './insert-select';

/**
 * The tenant's earning rules as the portal manages them (CONTRACT.md, Events and earning rules).
 * The limits on how many rules a tenant has are decided inside the write's own statement, so two
 * writes at once cannot both take the last place. Evaluation reads rules elsewhere
 * (data/earning-evaluation.ts); every change here bumps the tenant's rule version by trigger
 * (src/db/sql/earning-rules.sql).
 */

/** Everything a request can set on a rule, as stored (windows as ISO 8601 UTC strings, so they compare as text). */
export type RuleDefinition = {
  name: string;
  description: string;
  eventType: string;
  status: EarningRuleStatus;
  priority: number;
  stackable: boolean;
  conditions: RuleConditions;
  effect: RuleEffect;
  multipliers: RuleMultiplier[];
  limits: RuleLimits;
  totalXpBudget: number | null;
  startsAt: string | null;
  endsAt: string | null;
};

export type RuleFilters = { status?: EarningRuleStatus; eventType?: string };

/** How many rules a tenant may have, and how many active ones per event type. */
export type RuleCaps = { perTenant: number; activePerType: number };

const ruleWhere = (tenantId: string, id: string) => and(eq(earningRules.tenantId, tenantId), eq(earningRules.id, id));

const activeOfType = (tenantId: string, eventType: string) =>
  and(eq(earningRules.tenantId, tenantId), eq(earningRules.eventType, eventType), eq(earningRules.status, 'active'));

/** A page of rules, newest first (rowid breaks ties within a millisecond), and the total of the same filters. */
export function rulePageQueries(db: Database, tenantId: string, filters: RuleFilters, params: PageParams) {
  const where = and(
    eq(earningRules.tenantId, tenantId),
    filters.status === undefined ? undefined : eq(earningRules.status, filters.status),
    filters.eventType === undefined ? undefined : eq(earningRules.eventType, filters.eventType),
  );
  return [
    db
      .select()
      .from(earningRules)
      .where(where)
      .orderBy(desc(earningRules.createdAt), desc(sql`${earningRules}.rowid`))
      .limit(params.limit)
      .offset(offsetOf(params)),
    db.select({ value: count() }).from(earningRules).where(where),
  ] as const;
}

export function ruleByIdQuery(db: Database, tenantId: string, id: string) {
  return db.select().from(earningRules).where(ruleWhere(tenantId, id)).limit(1);
}

/** The tenant's rule count and its active rules of `eventType`: read beside a refused write, to say which cap refused it. */
export function ruleCountQueries(db: Database, tenantId: string, eventType: string) {
  return {
    rules: db.select({ value: count() }).from(earningRules).where(eq(earningRules.tenantId, tenantId)),
    activeOfType: db.select({ value: count() }).from(earningRules).where(activeOfType(tenantId, eventType)),
  };
}

/** Inserts the rule unless the tenant is at `caps.perTenant` rules, or (for an active rule) its event type at `caps.activePerType`: no row returned then. */
export function insertRuleQuery(db: Database, tenantId: string, id: string, rule: RuleDefinition, caps: RuleCaps, now: string) {
  const { rules, activeOfType: active } = ruleCountQueries(db, tenantId, rule.eventType);
  const fits = and(sql`(${rules}) < ${caps.perTenant}`, rule.status === 'active' ? sql`(${active}) < ${caps.activePerType}` : undefined);
  const row = selectedRow(earningRules, {
    id,
    tenantId,
    name: rule.name,
    description: rule.description,
    eventType: rule.eventType,
    status: rule.status,
    priority: rule.priority,
    stackable: rule.stackable ? 1 : 0,
    conditions: JSON.stringify(rule.conditions),
    effect: JSON.stringify(rule.effect),
    multipliers: JSON.stringify(rule.multipliers),
    limits: JSON.stringify(rule.limits),
    totalXpBudget: rule.totalXpBudget,
    startsAt: rule.startsAt,
    endsAt: rule.endsAt,
    timesApplied: 0,
    xpAwarded: 0,
    createdAt: now,
    updatedAt: now,
  });
  return db.insert(earningRules).select(db.select(row).from(ONE_ROW).where(fits)).returning();
}

/**
 * Whether the rule still fits once `changes` apply, over the row as it is when the statement runs
 * (another change may have landed since the service read it): a window bound set alone stays on
 * its side of the stored other one, and a rule that becomes active for an event type (its status or
 * type changed) takes a free place under `activePerType`.
 */
function stillFits(db: Database, tenantId: string, changes: Partial<RuleDefinition>, activePerType: number): SQL | undefined {
  const guards: SQL[] = [];
  const { startsAt, endsAt } = changes;
  if (startsAt != null && endsAt === undefined) guards.push(sql`(${earningRules.endsAt} is null or ${earningRules.endsAt} > ${startsAt})`);
  if (endsAt != null && startsAt === undefined) guards.push(sql`(${earningRules.startsAt} is null or ${earningRules.startsAt} < ${endsAt})`);
  if (changes.status !== undefined || changes.eventType !== undefined) {
    const newType = sql`coalesce(${changes.eventType ?? null}, ${earningRules.eventType})`;
    const becomesActive = sql`coalesce(${changes.status ?? null}, ${earningRules.status}) = 'active' and not (${earningRules.status} = 'active' and ${earningRules.eventType} = ${newType})`;
    const other = alias(earningRules, 'other');
    const activeOthers = db
      .select({ value: count() })
      .from(other)
      .where(and(eq(other.tenantId, tenantId), eq(other.status, 'active'), sql`${other.eventType} = ${newType}`));
    guards.push(sql`(not (${becomesActive}) or (${activeOthers}) < ${activePerType})`);
  }
  return and(...guards);
}

/** Sets the fields `changes` names if the rule still fits (decided in the statement, race-free): no row returned when it does not, or is missing. */
export function updateRuleQuery(db: Database, tenantId: string, id: string, changes: Partial<RuleDefinition>, activePerType: number, now: string) {
  return db
    .update(earningRules)
    .set({ ...changes, updatedAt: now })
    .where(and(ruleWhere(tenantId, id), stillFits(db, tenantId, changes, activePerType)))
    .returning();
}

/** Deletes the rule (its per-customer counters go with it, by trigger: src/db/sql/earning-rules.sql); the effects it gave stay with their events (they carry its id and name). True when it existed. */
export async function deleteRule(db: Database, tenantId: string, id: string): Promise<boolean> {
  const rows = await db.delete(earningRules).where(ruleWhere(tenantId, id)).returning({ id: earningRules.id });
  return rows.length > 0;
}
