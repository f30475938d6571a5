import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Schemas } from '../../api/types';
import { useApi, useTenant } from '../../context/providers';
import { columnHelper, DataTable, Pager } from '../../components/DataTable';
import { QueryView } from '../../components/QueryView';
import { Button, Card, Field, Page } from '../../components/ui';
import { dateTime } from '../../lib/format';
import { keys } from '../../lib/keys';
import { PAGE_SIZE } from '../../lib/search';

type Entry = Schemas['AuditEntry'];
type Filters = { actor_id?: string; action?: string; target_id?: string; from?: string; to?: string };
const column = columnHelper<Entry>();

/** A datetime-local value (the browser's time zone) as the instant the API takes; empty is no filter. */
const instant = (local: FormDataEntryValue | null) => (typeof local === 'string' && local ? new Date(local).toISOString() : undefined);
const text = (value: FormDataEntryValue | null) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
const shown = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'string' && value !== '' ? value : JSON.stringify(value));

function FilterForm({ onApply }: { onApply: (filters: Filters) => void }) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    onApply({ actor_id: text(form.get('actor_id')), action: text(form.get('action')), target_id: text(form.get('target_id')), from: instant(form.get('from')), to: instant(form.get('to')) });
  };
  return (
    <form className="filters" aria-label="Audit log filters" onSubmit={submit}>
      <Field label="Actor id"><input name="actor_id" placeholder="acc_… or key id" /></Field>
      <Field label="Action"><input name="action" placeholder="updateReward" /></Field>
      <Field label="Target id"><input name="target_id" placeholder="rwd_…, cus_…" /></Field>
      <Field label="From"><input name="from" type="datetime-local" step="1" /></Field>
      <Field label="To"><input name="to" type="datetime-local" step="1" /></Field>
      <Button type="submit">Apply filters</Button>
    </form>
  );
}

/** A change's fields with their values before and after. */
function ChangeDetails({ entry, onClose }: { entry: Entry; onClose: () => void }) {
  const fields = Object.entries(entry.changes);
  return (
    <Card title={`${entry.action} on ${entry.target.type} ${entry.target.id}`} actions={<Button variant="link" onClick={onClose}>Close</Button>}>
      <p className="hint">By {entry.actor.label} ({entry.actor.type} {entry.actor.id}) at {dateTime(entry.at)}; request {entry.request_id}.</p>
      {fields.length === 0 ? <p>No field changed.</p> : (
        <table className="table" aria-label="Changed fields">
          <thead><tr><th scope="col">Field</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
          <tbody>
            {fields.map(([field, values]) => (
              <tr key={field}><th scope="row">{field}</th><td><code>{shown(values[0])}</code></td><td><code>{shown(values[1])}</code></td></tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

/** /t/$tenantId/audit-log (admins): who changed what, filtered, with each change's before and after. */
export function AuditLog() {
  const api = useApi();
  const { tenantId } = useTenant();
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState<Filters>({});
  const [open, setOpen] = useState<Entry | null>(null);
  const query = useQuery({
    queryKey: [...keys.auditLog(tenantId), filters, page],
    queryFn: () => api.call(api.portal.listAuditLog({ params: { path: { tenantId }, query: { ...filters, page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const columns = column.columns([
    column.accessor('at', { header: 'When', cell: (info) => dateTime(info.getValue()) }),
    column.accessor((row) => row.actor.label, { id: 'actor', header: 'Who' }),
    column.accessor('action', { header: 'Action' }),
    column.accessor((row) => `${row.target.type} ${row.target.id}`, { id: 'target', header: 'Target' }),
    column.accessor((row) => Object.keys(row.changes).join(', ') || '—', { id: 'fields', header: 'Fields' }),
    column.display({ id: 'details', header: 'Details', cell: (info) => <Button variant="link" onClick={() => setOpen(info.row.original)}>Before and after</Button> }),
  ]);
  return (
    <Page title="Audit log">
      <p className="hint">Every change made in the CMS or through the API's customer writes, recorded with the change itself. Kept 400 days; secrets never appear, an erased person's values show as [erased].</p>
      <FilterForm onApply={(next) => { setFilters(next); setPage(1); setOpen(null); }} />
      <QueryView query={query} what="Loading the audit log">
        {(result) => (
          <>
            <DataTable caption="Audit entries" columns={columns} data={result.items} empty="No entries match." />
            <Pager page={result.page} totalPages={result.total_pages} totalCount={result.total_count} onPage={setPage} />
          </>
        )}
      </QueryView>
      {open ? <ChangeDetails entry={open} onClose={() => setOpen(null)} /> : null}
    </Page>
  );
}
