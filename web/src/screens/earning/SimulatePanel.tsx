import { useState } from 'react';
import { EVENT_TYPE_PATTERN, MAX_EVENT_PROPERTIES } from '../../../../src/domain/earning-limits';
import type { Schemas } from '../../api/types';
import { useApi, useTenant } from '../../context/providers';
import { columnHelper, DataTable } from '../../components/DataTable';
import { Badge, Button, Card, ErrorNote, Field } from '../../components/ui';
import { xp } from '../../lib/format';
import { useFormMutation, type FieldErrors } from '../../lib/forms';
import { blank, collect, required } from '../../lib/rules';

type Outcome = Schemas['RuleOutcome'];
type Properties = Schemas['EventProperties'];
type TestDraft = { user_id: string; type: string; properties: string; occurred_at: string };
const column = columnHelper<Outcome>();

const reasons: Record<string, string> = {
  inactive: 'The rule is not active.',
  outside_window: 'The event is outside the rule\'s window.',
  conditions: 'Its conditions do not hold.',
  no_xp: 'It gives no XP for this event (0, or the property is missing or not a number).',
  capped: 'A limit or the budget is used up.',
};

/** Why a rule did not apply, in words; `stopped_by:<rule_id>` names the stopping rule. */
function reasonText(reason: string | null, outcomes: Outcome[]): string {
  if (reason === null) return '';
  const stopper = /^stopped_by:(.+)$/.exec(reason)?.[1];
  if (stopper) return `Stopped by ${outcomes.find((outcome) => outcome.rule_id === stopper)?.rule_name ?? stopper} (not stackable, higher priority).`;
  return reasons[reason] ?? reason;
}

/** The properties as JSON: a flat object, or the message to show at the field. */
function parseProperties(text: string): { properties: Properties } | { problem: string } {
  if (blank(text)) return { properties: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'Not valid JSON.' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: 'A JSON object, e.g. {"total": 45.5}.' };
  if (Object.keys(value).length > MAX_EVENT_PROPERTIES) return { problem: `At most ${MAX_EVENT_PROPERTIES} properties.` };
  // The API checks each value (string, number, boolean or list of strings) and answers at its key.
  return { properties: value as Properties };
}

function validate(draft: TestDraft): FieldErrors {
  const parsed = parseProperties(draft.properties);
  return collect([
    required('user_id', draft.user_id),
    required('type', draft.type),
    ['type', !blank(draft.type) && !EVENT_TYPE_PATTERN.test(draft.type.trim()), 'Lowercase letters, digits, "_" or ".", starting with a letter, e.g. order.paid.'],
    ['properties', 'problem' in parsed, 'problem' in parsed ? parsed.problem : ''],
    ['occurred_at', !blank(draft.occurred_at) && Number.isNaN(Date.parse(draft.occurred_at)), 'A date and time with its zone, e.g. 2026-12-01T10:00:00Z.'],
  ]);
}

/** The first error the API gave for a property (`properties.total`), shown at the properties field. */
const propertyError = (errors: FieldErrors): string | undefined => errors.properties ?? Object.entries(errors).find(([path]) => path.startsWith('properties.'))?.[1];

/**
 * "Test an event": what the rules would do with an event for a customer now (the API evaluates it
 * as a real event, the customer's tier, cohorts and counters included), writing nothing.
 */
export function SimulatePanel() {
  const api = useApi();
  const { tenantId } = useTenant();
  const [draft, setDraft] = useState<TestDraft>({ user_id: '', type: '', properties: '{}', occurred_at: '' });
  const form = useFormMutation(
    (values: TestDraft) => {
      const parsed = parseProperties(values.properties);
      const properties = 'properties' in parsed ? parsed.properties : {};
      const occurredAt = values.occurred_at.trim();
      return api.call(api.portal.simulateEarningRules({ params: { path: { tenantId } }, body: { user_id: values.user_id.trim(), type: values.type.trim(), properties, ...(occurredAt ? { occurred_at: occurredAt } : {}) } }));
    },
    { validate },
  );
  const result = form.result;
  const set = (name: keyof TestDraft) => (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value });
  const columns = column.columns([
    column.accessor('rule_name', { header: 'Rule' }),
    column.accessor('priority', { header: 'Priority' }),
    column.accessor('applied', { header: 'Result', cell: (info) => <Badge value={info.getValue() ? 'applied' : 'not applied'} /> }),
    column.accessor('amount', { header: 'XP', cell: (info) => xp(info.getValue()) }),
    column.accessor('capped', { header: 'Capped', cell: (info) => (info.getValue() ? 'yes' : 'no') }),
    column.accessor('reason', { header: 'Why not', cell: (info) => reasonText(info.getValue(), result?.rules ?? []) }),
  ]);
  return (
    <Card title="Test an event">
      <form className="form wide" noValidate aria-label="Test an event" onSubmit={(event) => { event.preventDefault(); form.submit(draft); }}>
        {form.formError ? <ErrorNote message={form.formError} requestId={form.formRequestId} /> : null}
        <div className="grid-3">
          <Field label="Customer id" error={form.fieldErrors.user_id} hint="cus_…, shown on the customer's page"><input value={draft.user_id} onChange={set('user_id')} /></Field>
          <Field label="Event type" error={form.fieldErrors.type}><input value={draft.type} placeholder="order.paid" onChange={set('type')} /></Field>
          <Field label="Occurred at" error={form.fieldErrors.occurred_at} hint="Empty: now"><input value={draft.occurred_at} placeholder="2026-12-01T10:00:00Z" onChange={set('occurred_at')} /></Field>
        </div>
        <Field label="Properties (JSON)" error={propertyError(form.fieldErrors)} hint='e.g. {"total": 45.5, "currency": "USD"}'>
          <textarea rows={3} value={draft.properties} onChange={set('properties')} />
        </Field>
        <div><Button type="submit" variant="primary" busy={form.busy}>Test event</Button></div>
      </form>
      {result ? (
        <div aria-live="polite">
          <p><strong>{xp(result.xp_awarded)} XP</strong> would be awarded now. Nothing was written.</p>
          <DataTable caption="Rules for this event" columns={columns} data={result.rules} empty={`No rule has the event type ${result.type}.`} />
        </div>
      ) : null}
    </Card>
  );
}
