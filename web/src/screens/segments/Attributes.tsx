import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { Allowed, useApi, useTenant } from '../../context/providers';
import { PAGE_SIZE } from '../../lib/search';
import { columnHelper, DataTable, Pager } from '../../components/DataTable';
import { Confirm, Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Button, ErrorNote, Field, Page } from '../../components/ui';
import { dateTime } from '../../lib/format';
import { useAction, useFormMutation } from '../../lib/forms';
import { keys } from '../../lib/keys';
import { collect, limits, maxLength, required } from '../../lib/rules';

type Definition = Schemas['AttributeDefinition'];
type AttributeType = Definition['type'];
export const attributeTypes: AttributeType[] = ['string', 'number', 'boolean', 'date', 'datetime', 'string_list'];
const column = columnHelper<Definition>();

function CreateAttribute({ onClose, onWarning }: { onClose: () => void; onWarning: (warning: string) => void }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const [key, setKey] = useState('');
  const [type, setType] = useState<AttributeType>('string');
  const form = useFormMutation((body: { key: string; type: AttributeType }) => api.call(api.portal.createAttribute({ params: { path: { tenantId } }, body })), {
    validate: (body) => collect([required('key', body.key), maxLength('key', body.key, limits.attributeKey)]),
    invalidate: [keys.attributes(tenantId), keys.cohorts(tenantId), keys.customers(tenantId)],
    success: 'Attribute defined.',
    onSuccess: (created) => {
      // The API accepts a key in another case or with spaces, normalizes it, and says so; so does a key cohorts still name.
      if (created.warning) onWarning(created.warning);
      onClose();
    },
  });
  return (
    <Dialog title="New attribute" onClose={onClose}>
      <form className="form" noValidate onSubmit={(event) => { event.preventDefault(); form.submit({ key: key.trim(), type }); }}>
        {form.formError ? <ErrorNote message={form.formError} requestId={form.formRequestId} /> : null}
        <Field label="Key" error={form.fieldErrors.key} hint="lowercase snake_case, 1-64 characters (other spellings are normalized, with a warning)">
          <input value={key} maxLength={limits.attributeKey} onChange={(event) => setKey(event.target.value)} />
        </Field>
        <Field label="Type" error={form.fieldErrors.type}>
          <select value={type} onChange={(event) => setType(attributeTypes.find((value) => value === event.target.value) ?? 'string')}>
            {attributeTypes.map((value) => <option key={value} value={value}>{value.replace('_', ' ')}</option>)}
          </select>
        </Field>
        <div className="dialog-footer"><Button onClick={onClose}>Cancel</Button><Button type="submit" variant="primary" busy={form.busy}>Create attribute</Button></div>
      </form>
    </Dialog>
  );
}

export function Attributes() {
  const api = useApi();
  const { tenantId, can } = useTenant();
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [warning, setWarning] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Definition | null>(null);
  const query = useQuery({
    queryKey: [...keys.attributes(tenantId), page],
    queryFn: () => api.call(api.portal.listAttributes({ params: { path: { tenantId }, query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const remove = useAction((definition: Definition) => api.call(api.portal.deleteAttribute({ params: { path: { tenantId, attributeId: definition.id } } })), {
    invalidate: [keys.attributes(tenantId), keys.cohorts(tenantId), keys.customers(tenantId)], success: 'Attribute deleted.', onSuccess: () => setDeleting(null),
  });
  const columns = column.columns([
    column.accessor('key', { header: 'Key', cell: (info) => <code>{info.getValue()}</code> }),
    column.accessor('type', { header: 'Type', cell: (info) => info.getValue().replace('_', ' ') }),
    column.accessor('created_at', { header: 'Created', cell: (info) => dateTime(info.getValue()) }),
    ...(can('edit_program') ? [column.display({ id: 'actions', header: 'Actions', cell: (info) => <Button variant="link" onClick={() => setDeleting(info.row.original)}>Delete</Button> })] : []),
  ]);
  return (
    <Page title="Attributes" actions={<Allowed to="edit_program"><Button variant="primary" onClick={() => setCreating(true)}>New attribute</Button></Allowed>}>
      {warning ? <div className="note note-warn" role="status"><p>{warning}</p><Button variant="link" onClick={() => setWarning(null)}>Dismiss</Button></div> : null}
      <QueryView query={query} what="Loading attributes">
        {(result) => (
          <>
            <DataTable caption="Attribute definitions" columns={columns} data={result.items} empty="No attributes yet." />
            <Pager page={result.page} totalPages={result.total_pages} totalCount={result.total_count} onPage={setPage} />
          </>
        )}
      </QueryView>
      {creating ? <CreateAttribute onClose={() => setCreating(false)} onWarning={setWarning} /> : null}
      {deleting ? (
        <Confirm title="Delete attribute" message={<p>Delete {deleting.key}? Customers lose its values, and cohorts naming it flag it as a dead key (it then matches no one).</p>} confirmLabel="Delete" busy={remove.isPending} onConfirm={() => remove.mutate(deleting)} onClose={() => setDeleting(null)} />
      ) : null}
    </Page>
  );
}
