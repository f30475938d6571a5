import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { Allowed, useApi, useTenant } from '../../context/providers';
import { PAGE_SIZE } from '../../lib/search';
import { columnHelper, DataTable, Pager } from '../../components/DataTable';
import { Confirm, Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Badge, Button, ErrorNote, Facts, Field, Page } from '../../components/ui';
import { dateTime, isoOfLocal } from '../../lib/format';
import { useAction, useFormMutation } from '../../lib/forms';
import { keys } from '../../lib/keys';
import { collect, limits, maxLength, required } from '../../lib/rules';
import { SecretOnce } from './SecretOnce';

type ApiKey = Schemas['ApiKey'];
type Created = Schemas['CreatedApiKey'];
type Draft = { name: string; label: string; expires: string };
const column = columnHelper<ApiKey>();

export function validateApiKey(draft: Draft, now = Date.now()) {
  const expires = isoOfLocal(draft.expires);
  return collect([
    required('name', draft.name),
    maxLength('name', draft.name, limits.apiKeyName),
    maxLength('label', draft.label, limits.apiKeyLabel),
    ['expires_at', draft.expires !== '' && (!expires || Date.parse(expires) <= now), 'A moment in the future.'],
  ]);
}

function CreateKey({ onCreated, onClose }: { onCreated: (key: Created) => void; onClose: () => void }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const [draft, setDraft] = useState<Draft>({ name: '', label: '', expires: '' });
  const form = useFormMutation(
    (values: Draft) => {
      const expiresAt = isoOfLocal(values.expires);
      const body = { name: values.name.trim(), ...(values.label.trim() ? { label: values.label.trim() } : {}), ...(expiresAt ? { expires_at: expiresAt } : {}) };
      return api.call(api.portal.createApiKey({ params: { path: { tenantId } }, body }));
    },
    { validate: (values) => validateApiKey(values), invalidate: [keys.apiKeys(tenantId)], onSuccess: onCreated },
  );
  return (
    <Dialog title="New API key" onClose={onClose}>
      <form className="form" noValidate onSubmit={(event) => { event.preventDefault(); form.submit(draft); }}>
        {form.formError ? <ErrorNote message={form.formError} requestId={form.formRequestId} /> : null}
        <Field label="Name" error={form.fieldErrors.name}><input value={draft.name} maxLength={limits.apiKeyName} onChange={(event) => setDraft({ ...draft, name: event.target.value })} /></Field>
        <Field label="Label" error={form.fieldErrors.label} hint="Defaults to the name"><input value={draft.label} maxLength={limits.apiKeyLabel} onChange={(event) => setDraft({ ...draft, label: event.target.value })} /></Field>
        <Field label="Expires" error={form.fieldErrors.expires_at} hint="Optional; your local time. After it the key fails authentication.">
          <input type="datetime-local" value={draft.expires} onChange={(event) => setDraft({ ...draft, expires: event.target.value })} />
        </Field>
        <div className="dialog-footer"><Button onClick={onClose}>Cancel</Button><Button type="submit" variant="primary" busy={form.busy}>Create key</Button></div>
      </form>
    </Dialog>
  );
}

export function ApiKeys() {
  const api = useApi();
  const { tenantId, can } = useTenant();
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Created | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const query = useQuery({
    queryKey: [...keys.apiKeys(tenantId), page],
    queryFn: () => api.call(api.portal.listApiKeys({ params: { path: { tenantId }, query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const revoke = useAction((key: ApiKey) => api.call(api.portal.revokeApiKey({ params: { path: { tenantId, id: key.id } } })), {
    invalidate: [keys.apiKeys(tenantId)], success: (key) => `Key ${key.key_id} revoked: it fails from the next request on.`, onSuccess: () => setRevoking(null),
  });
  const columns = column.columns([
    column.accessor('name', { header: 'Name' }),
    column.accessor('key_id', { header: 'Key id', cell: (info) => <code>{info.getValue()}</code> }),
    column.accessor((row) => `${row.secret_prefix}…${row.secret_suffix}`, { id: 'secret', header: 'Secret' }),
    column.accessor('status', { header: 'Status', cell: (info) => <Badge value={info.getValue()} /> }),
    column.accessor('expires_at', { header: 'Expires', cell: (info) => (info.getValue() ? dateTime(info.getValue()) : 'Never') }),
    column.accessor('last_used_at', { header: 'Last used', cell: (info) => dateTime(info.getValue()) }),
    ...(can('manage_api_keys')
      ? [column.display({ id: 'actions', header: 'Actions', cell: (info) => (info.row.original.status === 'active' ? <Button variant="link" onClick={() => setRevoking(info.row.original)}>Revoke</Button> : null) })]
      : []),
  ]);
  return (
    <Page title="API keys" actions={<Allowed to="manage_api_keys"><Button variant="primary" onClick={() => setCreating(true)}>New API key</Button></Allowed>}>
      <p className="hint">Your backend signs gateway requests with a key id and its secret (HMAC). Never put a secret in a browser or an app.</p>
      <QueryView query={query} what="Loading API keys">
        {(result) => (
          <>
            <DataTable caption="API keys" columns={columns} data={result.items} empty="No API keys yet." />
            <Pager page={result.page} totalPages={result.total_pages} totalCount={result.total_count} onPage={setPage} />
          </>
        )}
      </QueryView>
      {creating ? <CreateKey onClose={() => setCreating(false)} onCreated={(key) => { setCreating(false); setCreated(key); }} /> : null}
      {created ? (
        <SecretOnce title="API key created" label="secret" secret={created.secret} details={<Facts items={[['Key id (X-Tenant-Key)', <code>{created.key_id}</code>], ['Name', created.name]]} />} onClose={() => setCreated(null)} />
      ) : null}
      {revoking ? (
        <Confirm title="Revoke API key" message={<p>Revoke {revoking.name} ({revoking.key_id})? Requests signed with it fail at once, everywhere. This cannot be undone.</p>} confirmLabel="Revoke" busy={revoke.isPending} onConfirm={() => revoke.mutate(revoking)} onClose={() => setRevoking(null)} />
      ) : null}
    </Page>
  );
}
