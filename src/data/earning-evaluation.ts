import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { FACTOR_SCALE } from '../domain/earning-amounts';
import type { PlanDocument } from '../domain/earning-plan';
import { MAX_XP_AMOUNT } from '../domain/ledger';
import { violatesCheck } from './db-errors';
import { reusable, type Slots } from './reusable-statements';

/**
 * An event's evaluation in SQL (docs/RULES.md, "How an event is evaluated"), read from its plan
 * (domain/earning-plan.ts, one JSON parameter: D1 binds at most 100 per statement) against the
 * customer, the counters and the budgets as they are inside the event's own batch. So the limits
 * and budgets hold whatever runs at once: D1 runs one batch at a time, and the batch that writes an
 * effect also moves the counters the next one reads.
 *
 * `outcomes` is one row per evaluated rule, in order: whether its conditions hold, its full amount
 * (base x the customer's tier factor, floored), the amount that fits its limits and budget, and the
 * position of the non-stackable rule above it that gave XP (which stops it). The event's write and
 * `simulate` read the very same rows.
 */

/**
 * 1 when a compiled cohort-language predicate holds: the comparison of the view
 * `cohort_predicate_results` (src/db/sql/cohort-evaluation.sql), over this query's columns, so a
 * predicate means the same in a rule as in a cohort. test/db/rules-in-sql.test.ts holds the two
 * texts equal.
 */
export const PREDICATE_COMPARISON = `coalesce(CASE
    WHEN storage IS NULL THEN 0
    WHEN op = 'exists' THEN actual IS NOT NULL
    WHEN op = 'not_exists' THEN actual IS NULL
    WHEN op = 'eq' THEN actual = operand
    WHEN op = 'neq' THEN actual <> operand
    WHEN op = 'gt' THEN actual > operand
    WHEN op = 'gte' THEN actual >= operand
    WHEN op = 'lt' THEN actual < operand
    WHEN op = 'lte' THEN actual <= operand
    WHEN op = 'contains' AND storage = 'list' THEN EXISTS (SELECT 1 FROM json_each(actual) e WHERE e.value = operand)
    WHEN op = 'contains' THEN instr(actual, operand) > 0
    WHEN op = 'in' THEN actual IN (SELECT e.value FROM json_each(operand_list) e)
  END, 0)`;
const COMPARISON = sql.raw(PREDICATE_COMPARISON);

/**
 * Written into the SQL, not bound: D1 binds a JS number as a REAL, and a REAL divisor makes
 * `base x factor / scale` a fraction (7 x 1.5 = 10.5 XP) where integer division floors it.
 */
const SCALE = sql.raw(String(FACTOR_SCALE));
const MAX_AMOUNT = sql.raw(String(MAX_XP_AMOUNT));

/** What one evaluation reads: the tenant, the customer and the plan (domain/earning-plan.ts) as JSON. */
type Scope = { tenantId: string; userId: string; plan: string };
export type EvaluationScope = { tenantId: string; userId: string; document: PlanDocument };

const scopeValues = ({ tenantId, userId, document }: EvaluationScope): Scope => ({ tenantId, userId, plan: JSON.stringify(document) });

/** The common table expressions ending in `outcome` (see the module's comment), on placeholders: built once. */
function outcomes({ tenantId, userId, plan }: Slots<Scope>): SQL {
  const field = (source: string, path: string) => sql.raw(`json_extract(${source}, '${path}')`);
  return sql`WITH doc(j) AS (SELECT ${plan}),
cust AS MATERIALIZED (
  SELECT c.id, c.tenant_id, c.status, c.country_code, c.xp_balance, c.lifetime_xp,
    CASE WHEN c.tier_held THEN c.tier_id ELSE (SELECT t.tier_id FROM tier_placements t WHERE t.tenant_id = c.tenant_id
      AND t.min_xp_threshold <= c.lifetime_xp AND (t.below_lifetime_xp IS NULL OR c.lifetime_xp < t.below_lifetime_xp)) END AS tier_id
  FROM customers c WHERE c.tenant_id = ${tenantId} AND c.id = ${userId}
),
rule AS (
  SELECT CAST(r.key AS INTEGER) AS position, ${field('r.value', '$.id')} AS rule_id, ${field('r.value', '$.name')} AS rule_name,
    ${field('r.value', '$.operator')} AS operator, ${field('r.value', '$.stackable')} AS stackable, ${field('r.value', '$.base')} AS base,
    ${field('r.value', '$.multipliers')} AS multipliers, ${field('r.value', '$.limits')} AS limits
  FROM doc, json_each(doc.j, '$.rules') r
),
pred AS (
  SELECT ${field('p.value', '$.rule')} AS position, ${field('p.value', '$.subject')} AS subject, ${field('p.value', '$.key')} AS key,
    ${field('p.value', '$.op')} AS op, ${field('p.value', '$.holds')} AS holds,
    CASE WHEN ${field('p.value', '$.subject')} = 'attribute' THEN json_extract(p.value, '$.forms.' || d.type) ELSE ${field('p.value', '$.operand')} END AS form,
    d.id AS definition_id
  FROM doc, json_each(doc.j, '$.predicates') p
  LEFT JOIN attribute_definitions d ON d.tenant_id = ${tenantId} AND d.key = ${field('p.value', '$.key')} AND ${field('p.value', '$.subject')} = 'attribute'
),
pred_value AS (
  SELECT p.position, p.subject, p.op, p.holds, ${field('p.form', '$.storage')} AS storage, ${field('p.form', '$.list')} AS operand_list,
    CASE ${field('p.form', '$.storage')} WHEN 'number' THEN ${field('p.form', '$.number')} ELSE ${field('p.form', '$.text')} END AS operand,
    CASE p.subject
      WHEN 'attribute' THEN (SELECT CASE ${field('p.form', '$.storage')} WHEN 'number' THEN v.value_number ELSE v.value_text END
        FROM customer_attribute_values v WHERE v.tenant_id = cust.tenant_id AND v.user_id = cust.id AND v.definition_id = p.definition_id)
      WHEN 'status' THEN cust.status
      WHEN 'country' THEN cust.country_code
      WHEN 'xp_balance' THEN cust.xp_balance
      WHEN 'lifetime_xp' THEN cust.lifetime_xp
      WHEN 'tier' THEN cust.tier_id
      WHEN 'cohort' THEN EXISTS (SELECT 1 FROM cohort_memberships m
        WHERE m.tenant_id = cust.tenant_id AND m.cohort_id = ${field('p.form', '$.text')} AND m.customer_id = cust.id)
    END AS actual
  FROM pred p, cust
),
pred_result AS MATERIALIZED (
  SELECT position, CASE subject WHEN 'property' THEN holds WHEN 'cohort' THEN actual = (op = 'eq') ELSE ${COMPARISON} END AS matched
  FROM pred_value
),
rule_match AS (
  SELECT rule.*, cust.id AS user_id, cust.tier_id, CASE rule.operator
      WHEN 'and' THEN NOT EXISTS (SELECT 1 FROM pred_result r WHERE r.position = rule.position AND r.matched = 0)
      ELSE NOT EXISTS (SELECT 1 FROM pred_result r WHERE r.position = rule.position)
        OR EXISTS (SELECT 1 FROM pred_result r WHERE r.position = rule.position AND r.matched = 1)
    END AS holds
  FROM rule, cust
),
rule_amount AS (
  SELECT m.*,
    min(${MAX_AMOUNT}, m.base * coalesce((SELECT ${field('x.value', '$.factor')} FROM json_each(m.multipliers) x
      WHERE ${field('x.value', '$.tier')} = m.tier_id), ${SCALE}) / ${SCALE}) AS full_amount,
    EXISTS (SELECT 1 FROM json_each(m.limits) l
      LEFT JOIN rule_period_counters k ON k.rule_id = m.rule_id AND k.user_id = m.user_id AND k.period_key = ${field('l.value', '$.key')}
      WHERE ${field('l.value', '$.max_times')} IS NOT NULL AND coalesce(k.times, 0) >= ${field('l.value', '$.max_times')}) AS times_used_up,
    (SELECT min(${field('l.value', '$.max_xp')} - coalesce(k.xp, 0)) FROM json_each(m.limits) l
      LEFT JOIN rule_period_counters k ON k.rule_id = m.rule_id AND k.user_id = m.user_id AND k.period_key = ${field('l.value', '$.key')}
      WHERE ${field('l.value', '$.max_xp')} IS NOT NULL) AS xp_room,
    (SELECT r.total_xp_budget - r.xp_awarded FROM earning_rules r WHERE r.tenant_id = ${tenantId} AND r.id = m.rule_id) AS budget_room
  FROM rule_match m
),
rule_capped AS (
  SELECT a.*, CASE WHEN NOT a.holds OR a.full_amount <= 0 OR a.times_used_up THEN 0
      ELSE max(0, min(a.full_amount, coalesce(a.xp_room, a.full_amount), coalesce(a.budget_room, a.full_amount))) END AS amount
  FROM rule_amount a
),
outcome AS (
  SELECT c.*, min(CASE WHEN c.stackable = 0 AND c.amount > 0 THEN c.position END)
    OVER (ORDER BY c.position ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS stopped_at
  FROM rule_capped c
)`;
}

/** A rule the event applies: its conditions hold, it gives XP, nothing above stopped it (a capped one may fit 0). */
const APPLIES = sql.raw('holds AND full_amount > 0 AND stopped_at IS NULL');

export type EffectRow = {
  position: number;
  rule_id: string;
  rule_name: string;
  amount: number;
  capped: number;
  internal_transaction_id: string | null;
  mirror_operation_id: string | null;
};

/**
 * The id of an effect's transaction or mirror operation, made by SQLite (128 random bits of its
 * CSPRNG, hex) only for the effects that give XP: ids for rules that turn out not to apply would
 * cost the Worker a random token each.
 */
const NEW_ID = (prefix: string) => sql.raw(`'${prefix}_' || lower(hex(randomblob(16)))`);

const effectsStatement = reusable((db, $: Slots<Scope & { eventId: string }>) =>
  db.all<EffectRow>(sql`${outcomes($)}
INSERT INTO event_effects (tenant_id, event_id, position, rule_id, rule_name, amount, capped, internal_transaction_id, mirror_operation_id)
SELECT ${$.tenantId}, ${$.eventId}, position, rule_id, rule_name, amount, amount < full_amount,
  CASE WHEN amount > 0 THEN ${NEW_ID('itx')} END, CASE WHEN amount > 0 THEN ${NEW_ID('op')} END
FROM outcome WHERE ${APPLIES} ORDER BY position
RETURNING position, rule_id, rule_name, amount, capped, internal_transaction_id, mirror_operation_id`),
);

/** Writes the event's effects (`event_effects`), returning them (in any order: sort by `position`). */
export function effectsInsert(db: Database, scope: EvaluationScope, eventId: string) {
  return effectsStatement(db, { ...scopeValues(scope), eventId });
}

export type OutcomeRow = { position: number; holds: number; full_amount: number; amount: number; stopped_at: number | null };

const outcomesStatement = reusable((db, $: Slots<Scope>) =>
  db.all<OutcomeRow>(sql`${outcomes($)}
SELECT position, holds, full_amount, amount, stopped_at FROM outcome ORDER BY position`),
);

/** Every evaluated rule's outcome, in order, writing nothing (dry runs and `simulate`). */
export function outcomesSelect(db: Database, scope: EvaluationScope) {
  return outcomesStatement(db, scopeValues(scope));
}

/** `keys`: per evaluated rule (by position), the period keys of its limits, as JSON. */
const countersStatement = reusable((db, $: Slots<{ userId: string; eventId: string; keys: string }>) =>
  db.run(sql`INSERT INTO rule_period_counters (tenant_id, rule_id, user_id, period_key, times, xp)
SELECT e.tenant_id, e.rule_id, ${$.userId}, k.value, 1, e.amount
FROM event_effects e, json_each(${$.keys}, '$[' || e.position || ']') k
WHERE e.event_id = ${$.eventId} AND e.amount > 0
ON CONFLICT DO UPDATE SET times = times + excluded.times, xp = xp + excluded.xp`),
);

/** Moves the per-customer period counters of every limit of the rules the event applied. */
export function countersUpsert(db: Database, scope: EvaluationScope, eventId: string) {
  const keys = JSON.stringify(scope.document.rules.map((rule) => rule.limits.map((limit) => limit.key)));
  return countersStatement(db, { userId: scope.userId, eventId, keys });
}

/** Moves the rules' own counters (`times_applied`, `xp_awarded`: the budget reads the latter). */
export const ruleCountersUpdate = reusable((db, $: Slots<{ tenantId: string; eventId: string }>) =>
  db.run(sql`UPDATE earning_rules SET times_applied = times_applied + 1, xp_awarded = xp_awarded + e.amount
FROM (SELECT rule_id, amount FROM event_effects WHERE event_id = ${$.eventId} AND amount > 0) AS e
WHERE earning_rules.tenant_id = ${$.tenantId} AND earning_rules.id = e.rule_id`),
);

/**
 * Leads an event's batch when its rules came from the isolate's cache: refuses (rolling the batch
 * back) unless the tenant's rule version is still `version`. `isRulesChanged` recognises it.
 */
export const rulesVersionGuard = reusable((db, $: Slots<{ tenantId: string; version: number }>) =>
  db.run(sql`INSERT INTO earning_rules_guard (tenant_id) SELECT ${$.tenantId}
WHERE coalesce((SELECT version FROM earning_rule_versions WHERE tenant_id = ${$.tenantId}), 0) <> ${$.version}`),
);

/** The same check for a batch that only reads: the current version, compared by the caller. */
export const rulesVersionRead = reusable((db, $: Slots<{ tenantId: string }>) =>
  db.all<{ version: number }>(sql`SELECT coalesce((SELECT version FROM earning_rule_versions WHERE tenant_id = ${$.tenantId}), 0) AS version`),
);

export function isRulesChanged(error: unknown): boolean {
  return violatesCheck(error, 'earning_rules_changed');
}
