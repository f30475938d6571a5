import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { Allowed, useApi, useTenant } from '../../context/providers';
import { PAGE_SIZE } from '../../lib/search';
import { columnHelper, DataTable, Pager } from '../../components/DataTable';
import { Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Badge, Button, ErrorNote, Field, Page } from '../../components/ui';
import { dateTime, isoOfLocal } from '../../lib/format';
import { useAction, useFormMutation } from '../../lib/forms';
import { keys } from '../../lib/keys';
import { collect } from '../../lib/rules';

type ExportJob = Schemas['ExportJob'];
type Kind = ExportJob['kind'];
type Draft = { kind: Kind; cohortId: string; from: string; to: string };
const column = columnHelper<ExportJob>();

/** Every kind once, with its label: typed by the generated union, so a kind the API adds fails this build until it is offered. */
const kindLabels: Record<Kind, string> = { customers: 'Customers', internal_transactions: 'Transactions (ledger)', cohort_members: "A cohort's members" };
const kinds = Object.keys(kindLabels) as Kind[];
const unfinished = (job: ExportJob) => job.status === 'queued' || job.status === 'running';

/** The API's rules, checked before it is asked: a cohort for cohort_members, a period (local times) that is not backwards. */
export function validateExport(draft: Draft) {
  const from = isoOfLocal(draft.from);
  const to = isoOfLocal(draft.to);
  return collect([
    ['cohort_id', draft.kind === 'cohort_members' && draft.cohortId === '', 'Pick a cohort.'],
    ['from', from !== undefined && to !== undefined && from > to, 'Not after "To".'],
  ]);
}

function RequestExport({ onClose }: { onClose: () => void }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const [draft, setDraft] = useState<Draft>({ kind: 'customers', cohortId: '', from: '', to: '' });
  const cohorts = useQuery({
    queryKey: [...keys.cohorts(tenantId), 'choices'],
    queryFn: () => api.call(api.portal.listCohorts({ params: { path: { tenantId }, query: { limit: 100 } } })),
    enabled: draft.kind === 'cohort_members',
  });
  const form = useFormMutation(
    (values: Draft) => {
      const from = isoOfLocal(values.from);
      const to = isoOfLocal(values.to);
      const body = values.kind === 'cohort_members' ? { kind: values.kind, cohort_id: values.cohortId } : { kind: values.kind, ...(from ? { from } : {}), ...(to ? { to } : {}) };
      return api.call(api.portal.createExport({ params: { path: { tenantId } }, body }));
    },
    { validate: validateExport, invalidate: [keys.exports(tenantId)], success: 'Export requested: it appears below when ready.', onSuccess: onClose },
  );
  return (
    <Dialog title="New export" onClose={onClose}>
      <form className="form" noValidate onSubmit={(event) => { event.preventDefault(); form.submit(draft); }}>
        {form.formError ? <ErrorNote message={form.formError} requestId={form.formRequestId} /> : null}
        <Field label="What" error={form.fieldErrors.kind}>
          <select value={draft.kind} onChange={(event) => setDraft({ ...draft, kind: kinds.find((kind) => kind === event.target.value) ?? 'customers' })}>
            {kinds.map((kind) => <option key={kind} value={kind}>{kindLabels[kind]}</option>)}
          </select>
        </Field>
        {draft.kind === 'cohort_members' ? (
          <Field label="Cohort" error={form.fieldErrors.cohort_id} hint="Its members when the export runs">
            <select value={draft.cohortId} onChange={(event) => setDraft({ ...draft, cohortId: event.target.value })}>
              <option value="">{cohorts.isPending ? 'Loading cohorts…' : 'Choose a cohort'}</option>
              {(cohorts.data?.items ?? []).map((cohort) => <option key={cohort.id} value={cohort.id}>{cohort.name}</option>)}
            </select>
          </Field>
        ) : (
          <>
            <Field label="From" error={form.fieldErrors.from} hint="Optional; your local time. Rows created at or after it.">
              <input type="datetime-local" value={draft.from} onChange={(event) => setDraft({ ...draft, from: event.target.value })} />
            </Field>
            <Field label="To" error={form.fieldErrors.to} hint="Optional; rows created at or before it.">
              <input type="datetime-local" value={draft.to} onChange={(event) => setDraft({ ...draft, to: event.target.value })} />
            </Field>
          </>
        )}
        <div className="dialog-footer"><Button onClick={onClose}>Cancel</Button><Button type="submit" variant="primary" busy={form.busy}>Request export</Button></div>
      </form>
    </Dialog>
  );
}

/** Exports (admins): request one, follow it, download it through a link signed at the click (each link works one hour). */
export function Exports() {
  const api = useApi();
  const { tenantId } = useTenant();
  const [page, setPage] = useState(1);
  const [requesting, setRequesting] = useState(false);
  const query = useQuery({
    queryKey: [...keys.exports(tenantId), 'list', page],
    queryFn: () => api.call(api.portal.listExports({ params: { path: { tenantId }, query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
    refetchInterval: (current) => (current.state.data?.items.some(unfinished) ? 3000 : false),
  });
  // A fresh link at the click: one read an hour ago would have expired.
  const download = useAction((job: ExportJob) => api.call(api.portal.getExport({ params: { path: { tenantId, exportId: job.id } } })), {
    onSuccess: (fresh) => {
      if (fresh.download_url) window.open(fresh.download_url, '_self');
    },
  });
  const columns = column.columns([
    column.accessor('created_at', { header: 'Requested', cell: (info) => dateTime(info.getValue()) }),
    column.accessor('kind', { header: 'What', cell: (info) => kindLabels[info.getValue()] }),
    column.accessor((job) => (job.from || job.to ? `${dateTime(job.from)} – ${dateTime(job.to)}` : '—'), { id: 'period', header: 'Period' }),
    column.accessor('status', { header: 'Status', cell: (info) => <Badge value={info.getValue()} label={info.row.original.failure_reason ? `failed: ${info.row.original.failure_reason}` : undefined} /> }),
    column.accessor('rows', { header: 'Rows', cell: (info) => (info.row.original.status === 'completed' ? info.getValue().toLocaleString('en-US') : '—') }),
    column.accessor('file_expires_at', { header: 'Kept until', cell: (info) => dateTime(info.getValue()) }),
    column.display({
      id: 'download',
      header: 'File',
      cell: (info) =>
        info.row.original.status === 'completed' ? (
          <Button variant="link" busy={download.isPending && download.variables?.id === info.row.original.id} onClick={() => download.mutate(info.row.original)}>Download CSV</Button>
        ) : null,
    }),
  ]);
  return (
    <Page title="Exports" actions={<Allowed to="run_imports_exports"><Button variant="primary" onClick={() => setRequesting(true)}>New export</Button></Allowed>}>
      <p className="hint">CSV files (UTF-8, header row) written in the background; each is kept 7 days, and an erasure expires every file made before it.</p>
      <QueryView query={query} what="Loading exports">
        {(result) => (
          <>
            <DataTable caption="Exports" columns={columns} data={result.items} empty="No exports yet." />
            <Pager page={result.page} totalPages={result.total_pages} totalCount={result.total_count} onPage={setPage} />
          </>
        )}
      </QueryView>
      {requesting ? <RequestExport onClose={() => setRequesting(false)} /> : null}
    </Page>
  );
}
