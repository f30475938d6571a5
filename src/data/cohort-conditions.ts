import { and, asc, desc, eq, exists, gt, gte, isNotNull, isNull, lt, lte, ne, notExists, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/sqlite-core';
import { customerAttributeValues as values, customers, tierRules } from '../db/schema';
import type { Comparison, ResolvedPredicate, ResolvedRules } from '../domain/cohort-rules';

/**
 * Compiles resolved cohort rules (domain/cohort-rules.ts) into one SQL condition over `customers`:
 * customer fields directly, attributes through correlated EXISTS subqueries on
 * customer_attribute_values. Every value is a bound parameter (an `in` list is one JSON parameter
 * read back with json_each, which also keeps a long list under D1's 100-parameter limit).
 */

const qb = new QueryBuilder();
const never = sql`0`;

/**
 * The customer's tier: the tenant's tier with the highest threshold not above lifetime_xp; among
 * equal thresholds the oldest, exactly as data/customer-tiers.ts places customers.
 */
const currentTierId = sql`(${qb
  .select({ id: tierRules.id })
  .from(tierRules)
  .where(and(eq(tierRules.tenantId, customers.tenantId), lte(tierRules.minXpThreshold, customers.lifetimeXp)))
  .orderBy(desc(tierRules.minXpThreshold), asc(tierRules.createdAt), asc(tierRules.id))
  .limit(1)})`;

const fieldColumns = {
  tier: currentTierId,
  status: customers.status,
  country: customers.countryCode,
  xp_balance: customers.xpBalance,
  lifetime_xp: customers.lifetimeXp,
} as const;

function inJsonList(column: SQLWrapper, list: readonly (string | number)[]): SQL {
  return sql`${column} in (select json_each.value from json_each(${JSON.stringify(list)}))`;
}

/** `column <op> operand` for the ops that compare a present value. */
function comparison(column: SQLWrapper, c: Exclude<Comparison, { op: 'exists' } | { op: 'not_exists' }>): SQL {
  switch (c.op) {
    case 'eq':
      return eq(column, c.operand);
    case 'neq':
      return ne(column, c.operand);
    case 'gt':
      return gt(column, c.operand);
    case 'gte':
      return gte(column, c.operand);
    case 'lt':
      return lt(column, c.operand);
    case 'lte':
      return lte(column, c.operand);
    case 'contains':
      // instr, not LIKE: `%` and `_` in the operand are plain characters.
      return sql`instr(${column}, ${c.operand}) > 0`;
    case 'in':
      return inJsonList(column, c.operand);
  }
}

function attributeCondition(p: Extract<ResolvedPredicate, { kind: 'attribute' }>): SQL {
  const row = (extra?: SQL) =>
    qb
      .select({ one: sql`1` })
      .from(values)
      .where(and(eq(values.tenantId, customers.tenantId), eq(values.userId, customers.id), eq(values.definitionId, p.definitionId), extra));
  const c = p.comparison;
  if (c.op === 'exists') return exists(row());
  if (c.op === 'not_exists') return notExists(row());
  if (p.storage === 'list') {
    // Only `contains` fits a string list: one element equal to the operand.
    return exists(row(sql`exists (select 1 from json_each(${values.valueText}) where json_each.value = ${c.operand})`));
  }
  return exists(row(comparison(p.storage === 'number' ? values.valueNumber : values.valueText, c)));
}

function fieldCondition(p: Extract<ResolvedPredicate, { kind: 'field' }>): SQL {
  const column = fieldColumns[p.field];
  const c = p.comparison;
  if (c.op === 'exists') return isNotNull(column);
  if (c.op === 'not_exists') return isNull(column);
  return comparison(column, c);
}

function predicateCondition(p: ResolvedPredicate): SQL {
  if (p.kind === 'never') return never;
  return p.kind === 'attribute' ? attributeCondition(p) : fieldCondition(p);
}

/** The members of a cohort of the tenant: the one condition both counting and listing use. */
export function cohortMemberCondition(tenantId: string, rules: ResolvedRules): SQL {
  const parts = rules.predicates.map(predicateCondition);
  const combined = rules.operator === 'and' ? and(...parts) : or(...parts);
  return and(eq(customers.tenantId, tenantId), combined ?? never) ?? never;
}
