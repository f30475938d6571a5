import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { useApi, useTenant } from '../../context/providers';
import { QueryView } from '../../components/QueryView';
import { Button, Card, ErrorNote, Field } from '../../components/ui';
import { useFormMutation } from '../../lib/forms';
import { keys } from '../../lib/keys';

type Entry = Schemas['AttributeValueEntry'];
type Value = Schemas['SetAttributeValuesBody']['values'][string];

/** The text a control shows for a stored value (string_list: one item per line). */
function draftOf(entry: Entry): string {
  if (entry.value === null) return '';
  if (entry.type !== 'string_list') return entry.value;
  try {
    const list: unknown = JSON.parse(entry.value);
    return Array.isArray(list) ? list.join('\n') : entry.value;
  } catch {
    return entry.value;
  }
}

/** The typed value the API expects for a definition (an empty control clears the value: null). */
export function typedValue(type: Entry['type'], draft: string): Value {
  if (draft.trim() === '') return null;
  switch (type) {
    case 'number':
      return Number(draft);
    case 'boolean':
      return draft === 'true';
    case 'string_list':
      return draft.split('\n').map((item) => item.trim()).filter(Boolean);
    default:
      return draft;
  }
}

/** The id and aria attributes <Field> gives its control are passed on to the real input. */
type ControlAria = { id?: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string };

function Control({ entry, value, onChange, disabled, ...aria }: ControlAria & { entry: Entry; value: string; onChange: (value: string) => void; disabled: boolean }) {
  switch (entry.type) {
    case 'boolean':
      return (
        <select {...aria} value={value} disabled={disabled} onChange={(event) => onChange(event.target.value)}>
          <option value="">(no value)</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      );
    case 'number':
      return <input {...aria} type="number" step="any" value={value} disabled={disabled} onChange={(event) => onChange(event.target.value)} />;
    case 'date':
      return <input {...aria} type="date" value={value} disabled={disabled} onChange={(event) => onChange(event.target.value)} />;
    case 'string_list':
      return <textarea {...aria} rows={3} value={value} disabled={disabled} onChange={(event) => onChange(event.target.value)} />;
    default:
      return <input {...aria} value={value} disabled={disabled} placeholder={entry.type === 'datetime' ? '2026-11-21T12:00:00Z' : undefined} onChange={(event) => onChange(event.target.value)} />;
  }
}

const hints: Partial<Record<Entry['type'], string>> = { string_list: 'One item per line', datetime: 'ISO 8601 with Z or an offset' };

function AttributesForm({ customerId, entries }: { customerId: string; entries: Entry[] }) {
  const api = useApi();
  const { tenantId, can } = useTenant();
  const initial = Object.fromEntries(entries.map((entry) => [entry.key, draftOf(entry)]));
  const [drafts, setDrafts] = useState<Record<string, string>>(initial);
  const form = useFormMutation(
    (values: Record<string, Value>) => api.call(api.portal.setCustomerAttributes({ params: { path: { tenantId, customer_id: customerId } }, body: { values } })),
    { invalidate: [[...keys.customers(tenantId), 'attributes', customerId], keys.cohorts(tenantId)], success: 'Attributes saved.' },
  );
  const editable = can('edit_program');
  return (
    <form
      className="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        // Only what changed: an untouched value is not rewritten.
        const changed = entries.filter((entry) => drafts[entry.key] !== initial[entry.key]);
        form.submit(Object.fromEntries(changed.map((entry) => [entry.key, typedValue(entry.type, drafts[entry.key] ?? '')])));
      }}
    >
      {form.formError ? <ErrorNote message={form.formError} requestId={form.formRequestId} /> : null}
      {entries.map((entry) => (
        <Field key={entry.definition_id} label={`${entry.key} (${entry.type.replace('_', ' ')})`} error={form.fieldErrors[`values.${entry.key}`]} hint={hints[entry.type]}>
          <Control entry={entry} value={drafts[entry.key] ?? ''} disabled={!editable} onChange={(value) => setDrafts({ ...drafts, [entry.key]: value })} />
        </Field>
      ))}
      {editable ? <Button type="submit" variant="primary" busy={form.busy}>Save attributes</Button> : null}
    </form>
  );
}

/** One control per attribute definition, typed by the definition; empty clears the value. */
export function CustomerAttributes({ customerId }: { customerId: string }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const query = useQuery({
    queryKey: [...keys.customers(tenantId), 'attributes', customerId],
    queryFn: () => api.call(api.portal.getCustomerAttributes({ params: { path: { tenantId, customer_id: customerId } } })),
  });
  return (
    <Card title="Attributes">
      <QueryView query={query} what="Loading attributes">
        {(entries) => (entries.length === 0 ? <p className="muted">No attributes are defined for this tenant (Attributes screen).</p> : <AttributesForm key={JSON.stringify(entries)} customerId={customerId} entries={entries} />)}
      </QueryView>
    </Card>
  );
}
