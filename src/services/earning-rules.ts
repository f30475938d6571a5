import { definitionsByKeysQuery } from '../data/attributes';
import { cohortIdsQuery } from '../data/cohorts';
import { deleteRule, insertRuleQuery, ruleByIdQuery, ruleCountQueries, rulePageQueries, updateRuleQuery, type RuleDefinition } from '../data/earning-rules';
import { namedBatch, type NamedResults } from '../data/named-batch';
import { tierIdsQuery } from '../data/tiers';
import { MAX_ACTIVE_RULES_PER_TYPE, MAX_RULES_PER_TENANT } from '../domain/earning-limits';
import { checkRule, emptyWindowError, invalidRule, isEmptyWindow, type CheckedRule, type RuleConditions, type RuleEffect, type RuleLimits } from '../domain/earning-rules';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { pageOf, type Page } from '../lib/paging';
import { isoNow } from '../lib/time';
import type { CreateEarningRuleInput, EarningRuleListQuery, EarningRuleView, UpdateEarningRuleInput } from '../schemas/earning-rule';
import { toEarningRuleView } from '../views/earning-rule';
import type { ServiceContext } from './context';

/**
 * Earning rules (CONTRACT.md, Events and earning rules; docs/RULES.md): saved only once every part
 * can be evaluated (domain/earning-rules.ts `checkRule`, against the tenant's attribute
 * definitions, tiers and cohorts). Events evaluate a type's active rules highest `priority` first,
 * then oldest `created_at`, then `id`. The caps on rules are decided inside the write's statement
 * (data/earning-rules.ts), so concurrent writes cannot exceed them.
 */

type RuleInput = Pick<CreateEarningRuleInput, 'conditions' | 'effect' | 'limits'>;

const caps = { perTenant: MAX_RULES_PER_TENANT, activePerType: MAX_ACTIVE_RULES_PER_TYPE };

/** Stored form: every predicate carries `key` and `value` as strings ('' where they do not apply). */
const conditionsOf = ({ operator, predicates }: RuleInput['conditions']): RuleConditions => ({
  operator,
  predicates: predicates.map((p) => ({ type: p.type, key: p.key ?? '', op: p.op, value: p.value ?? '' })),
});

const effectOf = (effect: RuleInput['effect']): RuleEffect =>
  effect.kind === 'fixed' ? effect : { kind: 'per_unit', property: effect.property, xp_per_unit: effect.xp_per_unit, unit: effect.unit ?? '1' };

/** `limits` as a whole: the per-customer caps (JSON) and the budget (its own column, checked in SQL by the evaluation). */
const limitsOf = ({ per_customer, total_xp_budget }: RuleInput['limits']): { limits: RuleLimits; totalXpBudget: number | null } => ({
  limits: { per_customer: per_customer.map((limit) => ({ period: limit.period, max_times: limit.max_times ?? null, max_xp: limit.max_xp ?? null })) },
  totalXpBudget: total_xp_budget ?? null,
});

/** Windows are stored in UTC (`Z`), so they compare as text with every other instant. */
const utc = (value: string | null): string | null => (value === null ? null : new Date(value).toISOString());

function changesOf(input: UpdateEarningRuleInput): Partial<RuleDefinition> {
  return {
    name: input.name,
    description: input.description,
    eventType: input.event_type,
    status: input.status,
    priority: input.priority,
    stackable: input.stackable,
    conditions: input.conditions && conditionsOf(input.conditions),
    effect: input.effect && effectOf(input.effect),
    multipliers: input.multipliers,
    ...(input.limits && limitsOf(input.limits)),
    startsAt: input.starts_at === undefined ? undefined : utc(input.starts_at),
    endsAt: input.ends_at === undefined ? undefined : utc(input.ends_at),
  };
}

/** A create body has every field (its schema fills the defaults; no bound is no window), so its changes are a whole definition. */
function definitionOf(input: CreateEarningRuleInput): RuleDefinition {
  return changesOf({ ...input, starts_at: input.starts_at ?? null, ends_at: input.ends_at ?? null }) as RuleDefinition;
}

/** The reads `checkRule` needs for `conditions`, as named statements of one batch. */
function checkFactQueries({ db, tenantId }: ServiceContext, conditions: RuleConditions | undefined) {
  const predicates = conditions?.predicates ?? [];
  const keys = [...new Set(predicates.filter((p) => p.type === 'attribute').map((p) => p.key))];
  const cohortIds = [...new Set(predicates.filter((p) => p.type === 'cohort').map((p) => p.value))];
  return { definitions: definitionsByKeysQuery(db, tenantId, keys), tiers: tierIdsQuery(db, tenantId), cohorts: cohortIdsQuery(db, tenantId, cohortIds) };
}

type CheckFacts = NamedResults<ReturnType<typeof checkFactQueries>>;

function check(rule: CheckedRule, { definitions, tiers, cohorts }: CheckFacts): void {
  checkRule(rule, {
    definitions: new Map(definitions.map((row) => [row.key, { id: row.id, type: row.type }])),
    tierIds: new Set(tiers.map((tier) => tier.id)),
    cohortIds: new Set(cohorts.map((cohort) => cohort.id)),
  });
}

/** Newest first, optionally of one status and event type. */
export async function listEarningRules({ db, tenantId }: ServiceContext, query: EarningRuleListQuery): Promise<Page<EarningRuleView>> {
  const { page, limit, status, event_type: eventType } = query;
  const [rows, [total]] = await db.batch(rulePageQueries(db, tenantId, { status, eventType }, { page, limit }));
  return pageOf(rows.map(toEarningRuleView), total?.value ?? 0, { page, limit });
}

export async function getEarningRule({ db, tenantId }: ServiceContext, id: string): Promise<EarningRuleView> {
  const [rule] = await ruleByIdQuery(db, tenantId, id);
  if (!rule) throw ApiError.notFound('Earning rule');
  return toEarningRuleView(rule);
}

/** 422 for a rule that cannot be evaluated, or past the tenant's caps on rules. */
export async function createEarningRule(ctx: ServiceContext, input: CreateEarningRuleInput): Promise<EarningRuleView> {
  const { db, tenantId } = ctx;
  const rule = definitionOf(input);
  check(rule, await namedBatch(db, checkFactQueries(ctx, rule.conditions)));
  const { inserted, counts } = await namedBatch(db, {
    inserted: insertRuleQuery(db, tenantId, newId('rule'), rule, caps, isoNow(ctx.now())),
    counts: ruleCountQueries(db, tenantId, rule.eventType).rules,
  });
  const [created] = inserted;
  if (created) return toEarningRuleView(created);
  if ((counts[0]?.value ?? 0) >= MAX_RULES_PER_TENANT) {
    throw new ApiError('VALIDATION_FAILED', `A tenant has at most ${MAX_RULES_PER_TENANT} earning rules: delete one before creating another`);
  }
  throw activeCapReached(rule.eventType);
}

function activeCapReached(eventType: string): ApiError {
  return new ApiError('VALIDATION_FAILED', `At most ${MAX_ACTIVE_RULES_PER_TYPE} rules of one event type (${eventType}) are active: pause or archive one first`, {
    path: 'status',
  });
}

/**
 * PATCH: 404 before 422. The parts sent are checked; the stored ones are not again (a tier or
 * cohort deleted since simply never matches, as in cohorts, and must not block a rename). The
 * window is checked as it will be, and again in the write against the row as it then is, as is
 * the cap on active rules: a change that landed in between cannot slip an empty window or a
 * 51st active rule through.
 */
export async function updateEarningRule(ctx: ServiceContext, id: string, input: UpdateEarningRuleInput): Promise<EarningRuleView> {
  const { db, tenantId } = ctx;
  const changes = changesOf(input);
  const { rule: ruleRows, ...facts } = await namedBatch(db, { rule: ruleByIdQuery(db, tenantId, id), ...checkFactQueries(ctx, changes.conditions) });
  const [stored] = ruleRows;
  if (!stored) throw ApiError.notFound('Earning rule');
  const windowField = input.starts_at !== undefined && input.ends_at === undefined ? 'starts_at' : 'ends_at';
  const windowOf = (row: typeof stored) => ({ startsAt: changes.startsAt === undefined ? row.startsAt : changes.startsAt, endsAt: changes.endsAt === undefined ? row.endsAt : changes.endsAt });
  check(
    {
      conditions: changes.conditions ?? { operator: 'and', predicates: [] },
      multipliers: changes.multipliers ?? [],
      limits: changes.limits ?? { per_customer: [] },
      ...windowOf(stored),
      windowField,
    },
    facts,
  );
  const { updated, current } = await namedBatch(db, {
    updated: updateRuleQuery(db, tenantId, id, changes, MAX_ACTIVE_RULES_PER_TYPE, isoNow(ctx.now())),
    current: ruleByIdQuery(db, tenantId, id),
  });
  const [saved] = updated;
  if (saved) return toEarningRuleView(saved);
  const [latest] = current;
  if (!latest) throw ApiError.notFound('Earning rule');
  const window = windowOf(latest);
  if (isEmptyWindow(window.startsAt, window.endsAt)) throw invalidRule([emptyWindowError(windowField)]);
  throw activeCapReached(changes.eventType ?? latest.eventType);
}

/** Allowed whatever the rule gave: past events keep their effects (rule id and name included). `archived` keeps a rule without applying it. */
export async function deleteEarningRule({ db, tenantId }: ServiceContext, id: string): Promise<{ success: true }> {
  if (!(await deleteRule(db, tenantId, id))) throw ApiError.notFound('Earning rule');
  return { success: true };
}
