import { effectLedgerStatements } from '../data/effect-ledger';
import { effectsInsert, countersUpsert, outcomesSelect, ruleCountersUpdate, rulesVersionGuard, rulesVersionRead, type OutcomeRow } from '../data/earning-evaluation';
import { customerStatusRead, eventInsert, eventResponseStored } from '../data/event-writes';
import { customerGuardStatement, isCustomerRejected } from '../data/ledger';
import { namedBatch } from '../data/named-batch';
import type { ResponseWithWrite } from '../data/response-with-write';
import type { TenantRules } from '../data/rule-cache';
import { MAX_EVENT_AGE_DAYS, MAX_EVENT_LEAD_MINUTES } from '../domain/earning-limits';
import { planEvaluation, type CompiledRule, type Plan } from '../domain/earning-plan';
import type { EventProperties } from '../domain/earning-rules';
import { EARNING_STATUSES } from '../domain/ledger';
import { ApiError } from '../lib/errors';
import { newId } from '../lib/ids';
import { isoNow } from '../lib/time';
import type { EventDryRunView, EventView, SimulationView } from '../schemas/event';
import { toEffectView, toEventView } from '../views/event';
import type { ServiceContext } from './context';
import { customerRefusal, customerRejection } from './ledger';
import { creditTimes, StaleRules, withRules } from './program-version';
import { enqueueOperations } from './settlement';

/**
 * Events (CONTRACT.md, Events and earning rules; docs/RULES.md): a tenant's backend reports what
 * happened, the tenant's rules decide the XP. One D1 batch per event, led by the check that the
 * isolate's cached rules are current (data/rule-cache.ts): the customer guard, the effects as the
 * limits allow them at that instant, the counters, the event, the ledger entries and the stored
 * response. Dry runs and `simulate` evaluate the same SQL and write nothing.
 */

export type EventInput = { userId: string; type: string; occurredAt?: string; properties: EventProperties; reference?: string };

const DAY_MS = 86_400_000;

/** `occurred_at` as stored (UTC, milliseconds), within 30 days past and 5 minutes ahead of now. */
function occurredAtOf(ctx: ServiceContext, raw: string | undefined): Date {
  const now = ctx.now();
  if (raw === undefined) return now;
  const at = new Date(raw);
  if (at.getTime() < now.getTime() - MAX_EVENT_AGE_DAYS * DAY_MS) {
    throw new ApiError('VALIDATION_FAILED', `occurred_at is more than ${MAX_EVENT_AGE_DAYS} days in the past`, { path: 'occurred_at' });
  }
  if (at.getTime() > now.getTime() + MAX_EVENT_LEAD_MINUTES * 60_000) {
    throw new ApiError('VALIDATION_FAILED', `occurred_at is more than ${MAX_EVENT_LEAD_MINUTES} minutes in the future`, { path: 'occurred_at' });
  }
  return at;
}

function planFor(rules: TenantRules, input: EventInput, occurredAt: Date): Plan {
  const ofType = rules.byType.get(input.type) ?? [];
  return planEvaluation(ofType, { properties: input.properties, occurredAt, timezone: rules.timezone });
}

/** `POST /gateway/events`: evaluates and writes the event (see the module's comment). */
export async function recordEvent(ctx: ServiceContext, input: EventInput, response?: ResponseWithWrite<EventView>): Promise<EventView> {
  const { db, tenantId } = ctx;
  const occurredAt = occurredAtOf(ctx, input.occurredAt);
  const at = ctx.now();
  const createdAt = isoNow(at);
  return withRules(ctx, async (rules) => {
    const plan = planFor(rules, input, occurredAt);
    const event = { id: newId('evt'), tenantId, userId: input.userId, type: input.type, occurredAt: isoNow(occurredAt), properties: input.properties, reference: input.reference ?? null, createdAt };
    // Rendered before the batch with no XP and no effects: the stored body gets them in SQL.
    const view = toEventView({ ...event, xpAwarded: 0, seq: null }, []);
    const scope = { tenantId, userId: input.userId, document: plan.document };
    const evaluates = plan.evaluated.length > 0;
    const { effects, ledger, stored } = await namedBatch(db, {
      rules: rulesVersionGuard(db, { tenantId, version: rules.version }),
      guard: customerGuardStatement(db, tenantId, input.userId, EARNING_STATUSES),
      effects: evaluates ? effectsInsert(db, scope, event.id) : undefined,
      counters: plan.document.rules.some((rule) => rule.limits.length > 0) ? countersUpsert(db, scope, event.id) : undefined,
      ruleCounters: evaluates ? ruleCountersUpdate(db, { tenantId, eventId: event.id }) : undefined,
      event: eventInsert(db, event),
      ledger: evaluates ? effectLedgerStatements(db, { tenantId, userId: input.userId, eventId: event.id, now: createdAt, ...creditTimes(rules, at) }) : undefined,
      stored: response?.statement(db, view, { completion: eventResponseStored, values: { eventId: event.id, tenantId, createdAt } }),
    }).catch(async (error: unknown) => {
      if (isCustomerRejected(error)) throw await customerRejection(ctx, input.userId, 'user_id');
      throw error;
    });
    response?.settle(stored);
    const written = [...(effects ?? [])].sort((a, b) => a.position - b.position);
    const initialized = (ledger?.[1] ?? []).some((entry) => entry.status === 'initialized');
    const mints = written.flatMap((effect) => effect.mirror_operation_id ?? []);
    if (initialized) await enqueueOperations(ctx, mints);
    const effectViews = written.map((effect) =>
      toEffectView({ ruleId: effect.rule_id, ruleName: effect.rule_name, amount: effect.amount, capped: effect.capped === 1, internalTransactionId: effect.internal_transaction_id }),
    );
    return { ...view, xp_awarded: String(written.reduce((sum, effect) => sum + effect.amount, 0)), effects: effectViews };
  });
}

type Evaluation = { rules: TenantRules; plan: Plan; outcomes: OutcomeRow[] };

/** The event's evaluation without writing: one read batch, checked against the cached rules' version. */
async function evaluateOnly(ctx: ServiceContext, input: EventInput, occurredAt: Date): Promise<Evaluation> {
  const { db, tenantId } = ctx;
  return withRules(ctx, async (rules) => {
    const plan = planFor(rules, input, occurredAt);
    const scope = { tenantId, userId: input.userId, document: plan.document };
    const { version, customer, outcomes } = await namedBatch(db, {
      version: rulesVersionRead(db, { tenantId }),
      customer: customerStatusRead(db, tenantId, input.userId),
      outcomes: plan.evaluated.length > 0 ? outcomesSelect(db, scope) : undefined,
    });
    if (version[0]?.version !== rules.version) throw new StaleRules();
    const status = customer[0]?.status;
    if (!EARNING_STATUSES.some((allowed) => allowed === status)) throw customerRefusal(status, 'user_id');
    return { rules, plan, outcomes: [...(outcomes ?? [])].sort((a, b) => a.position - b.position) };
  });
}

type RuleOutcome = SimulationView['rules'][number];

/** What one evaluated rule did (CONTRACT.md's reasons, plus `no_xp`: docs/decisions/0092-rule-evaluation.md). */
function outcomeOf(rule: CompiledRule, row: OutcomeRow | undefined, plan: Plan): RuleOutcome {
  const base = { rule_id: rule.id, rule_name: rule.name, priority: rule.priority };
  const skip = (reason: string): RuleOutcome => ({ ...base, applied: false, amount: '0', capped: reason === 'capped', reason });
  if (!row || !row.holds) return skip('conditions');
  if (row.full_amount <= 0) return skip('no_xp');
  if (row.stopped_at !== null) return skip(`stopped_by:${plan.document.rules[row.stopped_at]?.id ?? ''}`);
  if (row.amount <= 0) return skip('capped');
  return { ...base, applied: true, amount: String(row.amount), capped: row.amount < row.full_amount, reason: null };
}

/** Every rule of the event's type, in evaluation order, with what it did or why not. */
function explain({ rules, plan, outcomes }: Evaluation, type: string): RuleOutcome[] {
  const skipped = new Map(plan.skipped.map((entry) => [entry.rule.id, entry.reason]));
  return (rules.byType.get(type) ?? []).map((rule) => {
    const reason = skipped.get(rule.id);
    if (reason) return { rule_id: rule.id, rule_name: rule.name, priority: rule.priority, applied: false, amount: '0', capped: false, reason };
    const position = plan.evaluated.indexOf(rule);
    return outcomeOf(rule, outcomes.find((row) => row.position === position), plan);
  });
}

/** `POST /tenant/{t}/earning-rules/simulate`: every rule of the type explained; writes nothing. */
export async function simulateEvent(ctx: ServiceContext, input: EventInput): Promise<SimulationView> {
  const occurredAt = occurredAtOf(ctx, input.occurredAt);
  const evaluation = await evaluateOnly(ctx, input, occurredAt);
  const rules = explain(evaluation, input.type);
  const xp = rules.reduce((sum, rule) => sum + Number(rule.amount), 0);
  return { user_id: input.userId, type: input.type, occurred_at: isoNow(occurredAt), xp_awarded: String(xp), rules };
}

/** `POST /gateway/events?dry_run=true`: the effects the event would have now; writes nothing. */
export async function dryRunEvent(ctx: ServiceContext, input: EventInput): Promise<EventDryRunView> {
  const occurredAt = occurredAtOf(ctx, input.occurredAt);
  const evaluation = await evaluateOnly(ctx, input, occurredAt);
  const effects = evaluation.outcomes
    .filter((row) => row.holds && row.full_amount > 0 && row.stopped_at === null)
    .map((row) => {
      const rule = evaluation.plan.evaluated[row.position];
      return toEffectView({ ruleId: rule?.id ?? '', ruleName: rule?.name ?? '', amount: row.amount, capped: row.amount < row.full_amount, internalTransactionId: null });
    });
  const xp = effects.reduce((sum, effect) => sum + Number(effect.amount), 0);
  return { type: input.type, user_id: input.userId, occurred_at: isoNow(occurredAt), properties: input.properties, reference: input.reference ?? null, xp_awarded: String(xp), effects };
}
