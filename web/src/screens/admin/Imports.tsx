import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { failureMessage, failureRequestId } from '../../api/errors';
import { useApi, useTenant } from '../../context/providers';
import { columnHelper, DataTable, Pager } from '../../components/DataTable';
import { Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Badge, Button, Card, ErrorNote, Facts, Field, Page } from '../../components/ui';
import { saveFile } from '../../lib/download';
import { dateTime } from '../../lib/format';
import { useAction } from '../../lib/forms';
import { keys } from '../../lib/keys';
import { PAGE_SIZE } from '../../lib/search';

/**
 * Imports (admins; docs/OPERATIONS.md, "Imports"): upload a customers or balances CSV with its
 * progress, follow each job's counts while it runs, read its first row errors and download them all.
 */

type ImportJob = Schemas['ImportJob'];
type Kind = ImportJob['kind'];
const column = columnHelper<ImportJob>();

/** How often the list is read again while a job is queued or running. */
const FOLLOW_MS = 2_000;

const columnsOf: Record<Kind, string> = {
  customers: 'external_id (required), email, username, country_code, status, attr.<key> per attribute',
  balances: 'external_id, amount (required), notes, expires_at (ISO 8601)',
};

function Upload({ onDone }: { onDone: (job: ImportJob) => void }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<Kind>('customers');
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState(0);
  const upload = useMutation({
    mutationFn: (chosen: File) => api.upload<ImportJob>(`/tenant/${encodeURIComponent(tenantId)}/imports?kind=${kind}`, chosen, setSent),
    onSuccess: async (job) => {
      await queryClient.invalidateQueries({ queryKey: keys.imports(tenantId) });
      onDone(job);
    },
  });
  return (
    <Card title="Upload a file">
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!file) return;
          setSent(0);
          upload.mutate(file);
        }}
      >
        {upload.error ? <ErrorNote message={failureMessage(upload.error)} requestId={failureRequestId(upload.error)} /> : null}
        <Field label="Kind" hint={`Columns: ${columnsOf[kind]}`}>
          <select value={kind} onChange={(event) => setKind(event.target.value as Kind)}>
            <option value="customers">Customers</option>
            <option value="balances">Opening balances</option>
          </select>
        </Field>
        <Field label="CSV file" hint="UTF-8 with a header row, up to 50 MB. The same file again shows the import it already made.">
          <input type="file" accept=".csv,text/csv" onChange={(event) => setFile(event.target.files?.[0] ?? null)} />
        </Field>
        {upload.isPending ? (
          <p>
            <progress max={1} value={sent} aria-label="Upload progress" /> {Math.round(sent * 100)}% sent
          </p>
        ) : null}
        <div>
          <Button type="submit" variant="primary" busy={upload.isPending} disabled={!file}>Upload</Button>
        </div>
      </form>
    </Card>
  );
}

function JobDialog({ job, onClose }: { job: ImportJob; onClose: () => void }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const download = useAction(() => api.file(api.portal.getImportErrors({ params: { path: { tenantId, importId: job.id } }, parseAs: 'blob' })), {
    onSuccess: (blob) => saveFile(`${job.id}-errors.csv`, blob),
  });
  return (
    <Dialog title={`Import ${job.id}`} onClose={onClose}>
      <div className="dialog-body">
        <Facts
          items={[
            ['Kind', job.kind],
            ['Status', <Badge value={job.status} />],
            ['Rows', `${job.rows_ok} applied, ${job.rows_failed} failed of ${job.rows_total}`],
            ['Uploaded', dateTime(job.created_at)],
            ['Completed', job.completed_at ? dateTime(job.completed_at) : 'Not yet'],
            ['File SHA-256', <code>{job.file_sha256}</code>],
          ]}
        />
        {job.errors.length > 0 ? (
          <table className="table">
            <caption>First row errors{job.rows_failed > job.errors.length ? ` (${job.errors.length} of ${job.rows_failed})` : ''}</caption>
            <thead><tr><th scope="col">Row</th><th scope="col">Problem</th></tr></thead>
            <tbody>{job.errors.map((error) => <tr key={error.row}><td>{error.row}</td><td>{error.message}</td></tr>)}</tbody>
          </table>
        ) : <p className="hint">No row errors.</p>}
      </div>
      <footer className="dialog-footer">
        {job.errors_url ? <Button busy={download.isPending} onClick={() => download.mutate(undefined)}>Download all errors (CSV)</Button> : null}
        <Button onClick={onClose}>Done</Button>
      </footer>
    </Dialog>
  );
}

export function Imports() {
  const api = useApi();
  const { tenantId } = useTenant();
  const [page, setPage] = useState(1);
  const [shown, setShown] = useState<string | null>(null);
  const query = useQuery({
    queryKey: [...keys.imports(tenantId), page],
    queryFn: () => api.call(api.portal.listImports({ params: { path: { tenantId }, query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
    refetchInterval: (current) => (current.state.data?.items.some((job) => job.status === 'queued' || job.status === 'running') ? FOLLOW_MS : false),
  });
  const columns = column.columns([
    column.accessor('created_at', { header: 'Uploaded', cell: (info) => dateTime(info.getValue()) }),
    column.accessor('kind', { header: 'Kind' }),
    column.accessor('status', { header: 'Status', cell: (info) => <Badge value={info.getValue()} /> }),
    column.accessor((job) => `${job.rows_ok + job.rows_failed} / ${job.rows_total}`, { id: 'progress', header: 'Rows done' }),
    column.accessor('rows_failed', { header: 'Failed' }),
    column.display({ id: 'actions', header: 'Actions', cell: (info) => <Button variant="link" onClick={() => setShown(info.row.original.id)}>Details</Button> }),
  ]);
  const job = query.data?.items.find((item) => item.id === shown);
  return (
    <Page title="Imports">
      <p className="hint">Bring members and their balances from another program. Each row is applied once; a row that fails is reported and never stops the others.</p>
      <Upload onDone={(created) => setShown(created.id)} />
      <QueryView query={query} what="Loading imports">
        {(result) => (
          <>
            <DataTable caption="Imports" columns={columns} data={result.items} empty="No imports yet." />
            <Pager page={result.page} totalPages={result.total_pages} totalCount={result.total_count} onPage={setPage} />
          </>
        )}
      </QueryView>
      {job ? <JobDialog job={job} onClose={() => setShown(null)} /> : null}
    </Page>
  );
}
