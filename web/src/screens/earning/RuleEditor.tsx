import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { useApi, useTenant } from '../../context/providers';
import { QueryView } from '../../components/QueryView';
import { Button, ErrorNote, Field, Page } from '../../components/ui';
import { xp } from '../../lib/format';
import { useFormMutation } from '../../lib/forms';
import { keys } from '../../lib/keys';
import { limits } from '../../lib/rules';
import { useBuilderContext } from '../segments/Cohorts';
import { RuleBuilder } from '../segments/RuleBuilder';
import { ruleConditions } from '../segments/rules';
import { bodyOf, changedFields, draftOf, draftProblems, newRuleDraft, type EarningRule, type RuleDraft, type RuleStatus } from './draft';
import { EffectFields, LimitRows, MultiplierRows, WindowFields } from './RuleSections';

const statuses: { value: RuleStatus; label: string }[] = [
  { value: 'active', label: 'active: applies to events' },
  { value: 'paused', label: 'paused: kept, applies to nothing' },
  { value: 'archived', label: 'archived: retired' },
];

/**
 * Create or edit an earning rule: the cohort rule builder (with event properties and cohort
 * membership) for the conditions, then the effect, multipliers, limits and window. Our checks and
 * the API's 422 show at the field their `path` names; an edit sends only the fields it changed.
 */
function RuleForm({ rule }: { rule: EarningRule | null }) {
  const api = useApi();
  const navigate = useNavigate();
  const { tenantId, can } = useTenant();
  const context = useBuilderContext(tenantId, [], true);
  const [draft, setDraft] = useState<RuleDraft>(() => (rule ? draftOf(rule) : newRuleDraft));
  const editable = can('edit_program');
  const toList = () => void navigate({ to: '/t/$tenantId/earning-rules', params: { tenantId } });
  const form = useFormMutation(
    async (values: RuleDraft) => {
      const body = bodyOf(values, context.definitions);
      if (!rule) return api.call(api.portal.createEarningRule({ params: { path: { tenantId } }, body }));
      const changed = changedFields(body, bodyOf(draftOf(rule), context.definitions));
      if (Object.keys(changed).length === 0) return rule;
      return api.call(api.portal.updateEarningRule({ params: { path: { tenantId, id: rule.id } }, body: changed }));
    },
    {
      validate: (values) => draftProblems(values, context.definitions),
      invalidate: [keys.earningRules(tenantId)],
      success: (saved) => (rule ? `Rule ${saved.name} saved.` : `Rule ${saved.name} created.`),
      onSuccess: toList,
    },
  );
  const errors = form.fieldErrors;
  const set = (name: 'name' | 'description' | 'event_type' | 'priority') => (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value });
  return (
    <form className="form wide" noValidate aria-label="Earning rule" onSubmit={(event) => { event.preventDefault(); form.submit(draft); }}>
      {form.formError ? <ErrorNote message={form.formError} requestId={form.formRequestId} /> : null}
      <fieldset className="form-sections" disabled={!editable}>
        <div className="grid-2">
          <Field label="Name" error={errors.name}><input value={draft.name} maxLength={limits.ruleName} onChange={set('name')} /></Field>
          <Field label="Event type" error={errors.event_type} hint="The type your backend sends, e.g. order.paid"><input value={draft.event_type} placeholder="order.paid" onChange={set('event_type')} /></Field>
        </div>
        <Field label="Description" error={errors.description}><textarea rows={2} maxLength={limits.description} value={draft.description} onChange={set('description')} /></Field>
        <div className="grid-3">
          <Field label="Status" error={errors.status}>
            <select value={draft.status} onChange={(event) => setDraft({ ...draft, status: statuses.find((status) => status.value === event.target.value)?.value ?? draft.status })}>
              {statuses.map((status) => <option key={status.value} value={status.value}>{status.label}</option>)}
            </select>
          </Field>
          <Field label="Priority" error={errors.priority} hint="Higher runs first"><input inputMode="numeric" value={draft.priority} onChange={set('priority')} /></Field>
          <div className="toggle">
            <span className="field-label">Stacking</span>
            <label><input type="checkbox" checked={draft.stackable} onChange={(event) => setDraft({ ...draft, stackable: event.target.checked })} /> Stackable</label>
            <small className="hint">Off: when this rule gives XP, the rules below it do not apply.</small>
          </div>
        </div>
        <RuleBuilder rules={draft.conditions} onChange={(conditions) => setDraft({ ...draft, conditions })} language={ruleConditions} context={context} errors={errors} disabled={!editable} />
        <p className="hint">No condition: every event of the type. Event property conditions read the event&apos;s properties; the others, the customer.</p>
        <EffectFields value={draft.effect} onChange={(effect) => setDraft({ ...draft, effect })} errors={errors} />
        <MultiplierRows value={draft.multipliers} onChange={(multipliers) => setDraft({ ...draft, multipliers })} errors={errors} tiers={context.tiers} />
        <LimitRows value={draft.limits} onChange={(rows) => setDraft({ ...draft, limits: rows })} budget={draft.total_xp_budget} onBudget={(budget) => setDraft({ ...draft, total_xp_budget: budget })} errors={errors} />
        <WindowFields startsAt={draft.starts_at} endsAt={draft.ends_at} onChange={(window) => setDraft({ ...draft, ...window })} errors={errors} />
      </fieldset>
      <div className="row">
        <Link to="/t/$tenantId/earning-rules" params={{ tenantId }}>Back to the rules</Link>
        {editable ? <Button type="submit" variant="primary" busy={form.busy}>{rule ? 'Save rule' : 'Create rule'}</Button> : null}
      </div>
    </form>
  );
}

export function NewEarningRule() {
  return (
    <Page title="New earning rule">
      <RuleForm rule={null} />
    </Page>
  );
}

/** An edit starts from the rule as stored now (its counters too), not from a list page that may be stale. */
export function EarningRulePage() {
  const api = useApi();
  const { tenantId } = useTenant();
  const { ruleId } = useParams({ from: '/t/$tenantId/earning-rules/$ruleId' });
  const query = useQuery({
    queryKey: [...keys.earningRules(tenantId), 'one', ruleId],
    queryFn: () => api.call(api.portal.getEarningRule({ params: { path: { tenantId, id: ruleId } } })),
    staleTime: 0,
  });
  return (
    <QueryView query={query} what="Loading the rule">
      {(rule) => (
        <Page title={rule.name}>
          <p className="hint">Applied {rule.counters.times_applied.toLocaleString('en-US')} times, {xp(rule.counters.xp_awarded)} XP awarded. Changes apply to events evaluated after them; past events keep their XP.</p>
          <RuleForm key={rule.updated_at} rule={rule} />
        </Page>
      )}
    </QueryView>
  );
}
