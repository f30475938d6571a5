import type { AttributeType } from '../db/schema';
import { definitionsByKeysQuery } from '../data/attributes';
import { compileCohortStatements } from '../data/cohort-compile';
import {
  cohortByIdQuery,
  cohortPageQueries,
  deleteCohort as deleteCohortRow,
  insertCohortQuery,
  memberPageQuery,
  updateCohortQuery,
  type CohortWithCounts,
} from '../data/cohorts';
import { tierLadderQuery, tierOnLadder } from '../data/customer-tiers';
import { namedBatch } from '../data/named-batch';
import { tierIdsQuery } from '../data/tiers';
import { compileRules } from '../domain/cohort-forms';
import { attributeKeysOf, checkRules, storedRules, type CohortRules, type DefinitionRef } from '../domain/cohort-rules';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { pageOf, pageWindow, type Page, type PageParams } from '../lib/paging';
import { isoNow } from '../lib/time';
import { MAX_COHORTS_PER_TENANT, type CohortRulesInput, type CohortView, type CreateCohortInput, type UpdateCohortInput } from '../schemas/cohort';
import type { CustomerView } from '../schemas/customer';
import { toCohortView } from '../views/cohort';
import { toCustomerView } from '../views/customer';
import { applyTenantRecomputes } from './cohort-recomputes';
import type { ServiceContext } from './context';

/**
 * Cohorts read their member count, dead keys and members from what the database maintains
 * (src/db/sql/cohort-membership.sql): listing costs one row per cohort listed, whatever the rules and however many
 * customers (docs/decisions/0047-cohort-membership-maintained.md). Saving rules compiles them in the same batch and
 * re-evaluates the cohort over the tenant's customers in bounded chunks (services/cohort-recomputes.ts).
 */

const refsOf = (rows: readonly { id: string; key: string; type: AttributeType }[]): ReadonlyMap<string, DefinitionRef> =>
  new Map(rows.map((row) => [row.key, { id: row.id, type: row.type }]));

/** Stored form: every predicate carries `key` and `value` as strings ('' where they do not apply). */
function canonicalRules(input: CohortRulesInput): CohortRules {
  return {
    operator: input.operator,
    predicates: input.predicates.map((p) => ({ type: p.type, key: p.key ?? '', op: p.op, value: p.value ?? '' })),
    version: 1,
  };
}

const compileStatements = ({ db, tenantId }: ServiceContext, id: string, rules: CohortRules) =>
  compileCohortStatements(db, tenantId, id, rules, compileRules(rules));

/** What a cohort read answers, and which of the cohorts in it are still being re-evaluated (services/cohort-recomputes.ts). */
export type Recomputable<T> = { data: T; recomputing: string[] };

const recomputingOf = (rows: readonly CohortWithCounts[]) => rows.filter((row) => row.recomputing).map((row) => row.id);

function viewOf(row: CohortWithCounts | undefined): CohortView {
  if (!row) throw ApiError.notFound('Cohort');
  if (row.memberCount === null || row.deadKeys === null) throw new Error(`cohort ${row.id} is not compiled`);
  return toCohortView(row, { memberCount: row.memberCount, deadKeys: row.deadKeys, rules: storedRules(row.rules) });
}

/**
 * Cohorts saved before migration 0003 have no compiled rules yet: compiled (and counted) on their
 * first read, once. True when some were, so that the caller reads them again.
 */
async function compiledLegacy(ctx: ServiceContext, rows: readonly CohortWithCounts[]): Promise<boolean> {
  const [first, ...rest] = rows.filter((row) => row.memberCount === null).flatMap((row) => compileStatements(ctx, row.id, storedRules(row.rules)));
  if (!first) return false;
  await ctx.db.batch([first, ...rest]);
  await applyTenantRecomputes(ctx);
  return true;
}

/** Checks rules against the tenant's current definitions and tiers (422 per predicate field). */
async function checkedRules({ db, tenantId }: ServiceContext, input: CohortRulesInput): Promise<CohortRules> {
  const rules = canonicalRules(input);
  const [definitionRows, tiers] = await db.batch([definitionsByKeysQuery(db, tenantId, attributeKeysOf(rules)), tierIdsQuery(db, tenantId)]);
  checkRules(rules, { definitions: refsOf(definitionRows), tierIds: new Set(tiers.map((tier) => tier.id)) });
  return rules;
}

export async function listCohorts(ctx: ServiceContext, params: PageParams): Promise<Recomputable<Page<CohortView>>> {
  const read = async () => (await namedBatch(ctx.db, { page: cohortPageQueries(ctx.db, ctx.tenantId, params) })).page;
  let [rows, [total]] = await read();
  if (await compiledLegacy(ctx, rows)) [rows, [total]] = await read();
  return { data: pageOf(rows.map(viewOf), total?.value ?? 0, params), recomputing: recomputingOf(rows) };
}

async function loadCohort(ctx: ServiceContext, id: string): Promise<CohortWithCounts> {
  const { db, tenantId } = ctx;
  let [row] = await cohortByIdQuery(db, tenantId, id);
  if (row && (await compiledLegacy(ctx, [row]))) [row] = await cohortByIdQuery(db, tenantId, id);
  if (!row) throw ApiError.notFound('Cohort');
  return row;
}

const answered = (row: CohortWithCounts | undefined): Recomputable<CohortView> => ({ data: viewOf(row), recomputing: row ? recomputingOf([row]) : [] });

export async function getCohort(ctx: ServiceContext, id: string): Promise<Recomputable<CohortView>> {
  return answered(await loadCohort(ctx, id));
}

/** 422 past the per-tenant cohort limit, decided inside the batch (two creations cannot both take the last place). */
/** `createdBy`: the account of the member creating it. */
export async function createCohort(ctx: ServiceContext, input: CreateCohortInput & { createdBy: string }): Promise<Recomputable<CohortView>> {
  const { db, tenantId } = ctx;
  const rules = await checkedRules(ctx, input.rules);
  const cohort = { id: newId('coh'), tenantId, name: input.name, description: input.description, rules, createdBy: input.createdBy };
  const { inserted } = await namedBatch(db, {
    inserted: insertCohortQuery(db, cohort, MAX_COHORTS_PER_TENANT, isoNow(ctx.now())),
    compiled: compileStatements(ctx, cohort.id, rules),
  });
  if (inserted.length === 0) {
    throw new ApiError('VALIDATION_FAILED', `A tenant has at most ${MAX_COHORTS_PER_TENANT} cohorts: delete one before creating another`);
  }
  return reread(ctx, cohort.id);
}

/** The cohort as saved, once its re-evaluation is applied (or handed to the cron past the request's budget). */
async function reread(ctx: ServiceContext, id: string): Promise<Recomputable<CohortView>> {
  await applyTenantRecomputes(ctx);
  const [row] = await cohortByIdQuery(ctx.db, ctx.tenantId, id);
  return answered(row);
}

/** PATCH: 404 before 422, so a missing cohort is reported whatever the body says. New rules are compiled in the same batch, then re-evaluated. */
export async function updateCohort(ctx: ServiceContext, id: string, input: UpdateCohortInput): Promise<Recomputable<CohortView>> {
  const { db, tenantId } = ctx;
  await loadCohort(ctx, id);
  const rules = input.rules ? await checkedRules(ctx, input.rules) : undefined;
  const update = updateCohortQuery(db, tenantId, id, { name: input.name, description: input.description, rules }, isoNow(ctx.now()));
  if (!rules) {
    const { readBack } = await namedBatch(db, { update, readBack: cohortByIdQuery(db, tenantId, id) });
    return answered(readBack[0]);
  }
  await namedBatch(db, { update, compiled: compileStatements(ctx, id, rules) });
  return reread(ctx, id);
}

/** Its memberships go in chunks after it (src/db/sql/cohort-recomputes.sql). */
export async function deleteCohort(ctx: ServiceContext, id: string): Promise<{ success: true }> {
  if (!(await deleteCohortRow(ctx.db, ctx.tenantId, id))) throw ApiError.notFound('Cohort');
  await applyTenantRecomputes(ctx);
  return { success: true };
}

/** The cohort's members, newest first; the total is its maintained member count, read in the same batch. */
export async function listCohortMembers(ctx: ServiceContext, id: string, params: PageParams): Promise<Recomputable<Page<CustomerView>>> {
  const { db, tenantId } = ctx;
  // The count chooses the end the page is read from; a change between the two reads can shift the page by what changed.
  const cohort = await loadCohort(ctx, id);
  const { member_count: total } = viewOf(cohort);
  const window = pageWindow(params, total);
  const [rows, ladder] = await db.batch([memberPageQuery(db, tenantId, id, window), tierLadderQuery(db, tenantId)]);
  const newestFirst = window.fromOldest ? rows.reverse() : rows;
  const data = pageOf(newestFirst.map((customer) => toCustomerView(customer, tierOnLadder(ladder, customer))), total, params);
  return { data, recomputing: recomputingOf([cohort]) };
}
