import type { Database } from '../db/client';
import type { AttributeType, Cohort } from '../db/schema';
import { definitionsByKeysQuery } from '../data/attributes';
import { cohortMemberCondition } from '../data/cohort-conditions';
import {
  cohortByIdQuery,
  cohortPageQueries,
  deleteCohort as deleteCohortRow,
  definitionsNamedByCohortsQuery,
  insertCohortQuery,
  memberCountQuery,
  memberPageQuery,
  updateCohortQuery,
} from '../data/cohorts';
import { tierLadderQuery, tierOnLadder } from '../data/customer-tiers';
import {
  attributeKeysOf,
  checkRules,
  deadKeysOf,
  resolveRules,
  storedRules,
  type CohortRules,
  type DefinitionRef,
  type ResolvedRules,
} from '../domain/cohort-rules';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { pageOf, type Page, type PageParams } from '../lib/paging';
import type { CohortRulesInput, CohortView, CreateCohortInput, UpdateCohortInput } from '../schemas/cohort';
import type { CustomerView } from '../schemas/customer';
import { toCohortView } from '../views/cohort';
import { toCustomerView } from '../views/customer';

type Definitions = ReadonlyMap<string, DefinitionRef>;

const refsOf = (rows: readonly { id: string; key: string; type: AttributeType }[]): Definitions =>
  new Map(rows.map((row) => [row.key, { id: row.id, type: row.type }]));

/** Stored form: every predicate carries `key` and `value` as strings ('' where they do not apply). */
function canonicalRules(input: CohortRulesInput): CohortRules {
  return {
    operator: input.operator,
    predicates: input.predicates.map((p) => ({ type: p.type, key: p.key ?? '', op: p.op, value: p.value ?? '' })),
    version: 1,
  };
}

function currentRules(cohort: Cohort, definitions: Definitions): ResolvedRules {
  return resolveRules(storedRules(cohort.rules), { definitions });
}

function viewOf(row: Cohort, memberCount: number, definitions: Definitions): CohortView {
  const rules = storedRules(row.rules);
  return toCohortView(row, { memberCount, deadKeys: deadKeysOf(rules, definitions), rules });
}

/** Views with exact member counts: one count query per cohort, all in one batch. */
async function viewsOf(db: Database, tenantId: string, rows: readonly Cohort[], definitions: Definitions): Promise<CohortView[]> {
  const [first, ...rest] = rows.map((row) => memberCountQuery(db, cohortMemberCondition(tenantId, currentRules(row, definitions))));
  if (!first) return [];
  const counts = await db.batch([first, ...rest]);
  return rows.map((row, index) => viewOf(row, counts[index]?.[0]?.value ?? 0, definitions));
}

async function loadCohort(db: Database, tenantId: string, id: string) {
  const [[cohort], named] = await db.batch([cohortByIdQuery(db, tenantId, id), definitionsNamedByCohortsQuery(db, tenantId, id)]);
  if (!cohort) throw ApiError.notFound('Cohort');
  return { cohort, definitions: refsOf(named) };
}

/** Checks rules against the tenant's current definitions and tiers (422 per predicate field). */
async function checkedRules(db: Database, tenantId: string, input: CohortRulesInput) {
  const rules = canonicalRules(input);
  const [definitionRows, ladder] = await db.batch([definitionsByKeysQuery(db, tenantId, attributeKeysOf(rules)), tierLadderQuery(db, tenantId)]);
  const definitions = refsOf(definitionRows);
  return { rules, definitions, resolved: checkRules(rules, { definitions, tierIds: new Set(ladder.map((tier) => tier.id)) }) };
}

export async function listCohorts(db: Database, tenantId: string, params: PageParams): Promise<Page<CohortView>> {
  const [rows, [total], named] = await db.batch([...cohortPageQueries(db, tenantId, params), definitionsNamedByCohortsQuery(db, tenantId)]);
  return pageOf(await viewsOf(db, tenantId, rows, refsOf(named)), total?.value ?? 0, params);
}

export async function getCohort(db: Database, tenantId: string, id: string): Promise<CohortView> {
  const { cohort, definitions } = await loadCohort(db, tenantId, id);
  const [view] = await viewsOf(db, tenantId, [cohort], definitions);
  if (!view) throw new Error('cohort view missing');
  return view;
}

export async function createCohort(db: Database, tenantId: string, createdBy: string, input: CreateCohortInput): Promise<CohortView> {
  const { rules, definitions, resolved } = await checkedRules(db, tenantId, input.rules);
  const cohort = { id: newId('coh'), tenantId, name: input.name, description: input.description, rules, createdBy };
  const [[row], [members]] = await db.batch([insertCohortQuery(db, cohort), memberCountQuery(db, cohortMemberCondition(tenantId, resolved))]);
  if (!row) throw new Error('cohort insert returned nothing');
  return viewOf(row, members?.value ?? 0, definitions);
}

/** PATCH: 404 before 422, so a missing cohort is reported whatever the body says. */
export async function updateCohort(db: Database, tenantId: string, id: string, input: UpdateCohortInput): Promise<CohortView> {
  const { cohort, definitions: stored } = await loadCohort(db, tenantId, id);
  const checked = input.rules ? await checkedRules(db, tenantId, input.rules) : undefined;
  const definitions = checked?.definitions ?? stored;
  const resolved = checked?.resolved ?? currentRules(cohort, stored);
  const changes = { name: input.name, description: input.description, rules: checked?.rules };
  const [[row], [members]] = await db.batch([
    updateCohortQuery(db, tenantId, id, changes),
    memberCountQuery(db, cohortMemberCondition(tenantId, resolved)),
  ]);
  if (!row) throw ApiError.notFound('Cohort');
  return viewOf(row, members?.value ?? 0, definitions);
}

export async function deleteCohort(db: Database, tenantId: string, id: string): Promise<{ success: true }> {
  if (!(await deleteCohortRow(db, tenantId, id))) throw ApiError.notFound('Cohort');
  return { success: true };
}

/** The cohort's members, newest first, counted by the same condition that lists them. */
export async function listCohortMembers(db: Database, tenantId: string, id: string, params: PageParams): Promise<Page<CustomerView>> {
  const { cohort, definitions } = await loadCohort(db, tenantId, id);
  const condition = cohortMemberCondition(tenantId, currentRules(cohort, definitions));
  const [rows, [total], ladder] = await db.batch([
    memberPageQuery(db, condition, params),
    memberCountQuery(db, condition),
    tierLadderQuery(db, tenantId),
  ]);
  return pageOf(rows.map((customer) => toCustomerView(customer, tierOnLadder(ladder, customer))), total?.value ?? 0, params);
}
