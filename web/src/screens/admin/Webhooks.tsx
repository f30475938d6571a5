import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { Allowed, useApi, useTenant } from '../../context/providers';
import { PAGE_SIZE } from '../../lib/search';
import { columnHelper, DataTable, Pager } from '../../components/DataTable';
import { Confirm } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Badge, Button, Card, Facts, Page } from '../../components/ui';
import { dateTime } from '../../lib/format';
import { useAction } from '../../lib/forms';
import { keys } from '../../lib/keys';
import { SecretOnce } from './SecretOnce';
import { WebhookForm } from './WebhookForm';

type Endpoint = Schemas['WebhookEndpoint'];
type Delivery = Schemas['WebhookDelivery'];
const endpointColumn = columnHelper<Endpoint>();
const deliveryColumn = columnHelper<Delivery>();

export function Webhooks() {
  const api = useApi();
  const { tenantId } = useTenant();
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const query = useQuery({
    queryKey: [...keys.webhooks(tenantId), 'list', page],
    queryFn: () => api.call(api.portal.listWebhookEndpoints({ params: { path: { tenantId }, query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const columns = endpointColumn.columns([
    endpointColumn.accessor('url', { header: 'URL', cell: (info) => <Link to="/t/$tenantId/webhooks/$endpointId" params={{ tenantId, endpointId: info.row.original.id }}>{info.getValue()}</Link> }),
    endpointColumn.accessor('description', { header: 'Description' }),
    endpointColumn.accessor('event_types', { header: 'Events', cell: (info) => info.getValue().length }),
    endpointColumn.accessor('status', { header: 'Status', cell: (info) => <Badge value={info.getValue()} /> }),
    endpointColumn.accessor('failing_since', { header: 'Failing since', cell: (info) => dateTime(info.getValue()) }),
  ]);
  return (
    <Page title="Webhooks" actions={<Allowed to="manage_webhooks"><Button variant="primary" onClick={() => setCreating(true)}>New endpoint</Button></Allowed>}>
      <p className="hint">Events are signed with Standard Webhooks (verify with the SDK's verifyWebhook). Three days of failures disable an endpoint.</p>
      <QueryView query={query} what="Loading endpoints">
        {(result) => (
          <>
            <DataTable caption="Webhook endpoints" columns={columns} data={result.items} empty="No endpoints yet." />
            <Pager page={result.page} totalPages={result.total_pages} totalCount={result.total_count} onPage={setPage} />
          </>
        )}
      </QueryView>
      {creating ? <WebhookForm endpoint={null} onCreated={(created) => setSecret(created.secret)} onDone={() => setCreating(false)} /> : null}
      {secret ? <SecretOnce title="Endpoint created" label="signing secret" secret={secret} onClose={() => setSecret(null)} /> : null}
    </Page>
  );
}

function Deliveries({ endpointId }: { endpointId: string }) {
  const api = useApi();
  const { tenantId, can } = useTenant();
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: [...keys.webhooks(tenantId), 'deliveries', endpointId, page],
    queryFn: () => api.call(api.portal.listWebhookDeliveries({ params: { path: { tenantId, id: endpointId }, query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const replay = useAction((delivery: Delivery) => api.call(api.portal.replayWebhookDelivery({ params: { path: { tenantId, id: endpointId, deliveryId: delivery.id } } })), {
    invalidate: [keys.webhooks(tenantId)], success: 'Delivery queued again (same webhook-id, so receivers can drop a duplicate).',
  });
  const columns = deliveryColumn.columns([
    deliveryColumn.accessor('created_at', { header: 'When', cell: (info) => dateTime(info.getValue()) }),
    deliveryColumn.accessor('event_type', { header: 'Event' }),
    deliveryColumn.accessor('status', { header: 'Status', cell: (info) => <Badge value={info.getValue()} /> }),
    deliveryColumn.accessor('attempts', { header: 'Attempts' }),
    deliveryColumn.accessor((row) => row.last_status_code ?? row.last_error ?? '—', { id: 'last', header: 'Last answer' }),
    ...(can('manage_webhooks') ? [deliveryColumn.display({ id: 'replay', header: 'Actions', cell: (info) => <Button variant="link" onClick={() => replay.mutate(info.row.original)}>Replay</Button> })] : []),
  ]);
  return (
    <Card title="Deliveries">
      <QueryView query={query} what="Loading deliveries">
        {(result) => (
          <>
            <DataTable caption="Deliveries" columns={columns} data={result.items} empty="No deliveries yet." />
            <Pager page={result.page} totalPages={result.total_pages} totalCount={result.total_count} onPage={setPage} />
          </>
        )}
      </QueryView>
    </Card>
  );
}

export function WebhookPage() {
  const api = useApi();
  const navigate = useNavigate();
  const { tenantId } = useTenant();
  const { endpointId } = useParams({ from: '/t/$tenantId/webhooks/$endpointId' });
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState<'rotate' | 'delete' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const query = useQuery({
    queryKey: [...keys.webhooks(tenantId), 'one', endpointId],
    queryFn: () => api.call(api.portal.getWebhookEndpoint({ params: { path: { tenantId, id: endpointId } } })),
  });
  const path = { params: { path: { tenantId, id: endpointId } } };
  const toggle = useAction((status: Endpoint['status']) => api.call(api.portal.updateWebhookEndpoint({ ...path, body: { status } })), { invalidate: [keys.webhooks(tenantId)], success: (endpoint) => `Endpoint ${endpoint.status}.` });
  const rotate = useAction(() => api.call(api.portal.rotateWebhookEndpointSecret(path)), {
    invalidate: [keys.webhooks(tenantId)], onSuccess: (endpoint) => { setConfirm(null); setSecret(endpoint.secret); },
  });
  const remove = useAction(() => api.call(api.portal.deleteWebhookEndpoint(path)), {
    invalidate: [keys.webhooks(tenantId)], success: 'Endpoint deleted.', onSuccess: () => void navigate({ to: '/t/$tenantId/webhooks', params: { tenantId } }),
  });
  return (
    <QueryView query={query} what="Loading the endpoint">
      {(endpoint) => (
        <Page
          title={endpoint.url}
          actions={
            <Allowed to="manage_webhooks">
              <div className="row">
                <Button onClick={() => setEditing(true)}>Edit</Button>
                <Button onClick={() => toggle.mutate(endpoint.status === 'enabled' ? 'disabled' : 'enabled')}>{endpoint.status === 'enabled' ? 'Disable' : 'Enable'}</Button>
                <Button onClick={() => setConfirm('rotate')}>Rotate secret</Button>
                <Button variant="danger" onClick={() => setConfirm('delete')}>Delete</Button>
              </div>
            </Allowed>
          }
        >
          <Card title="Endpoint">
            <Facts items={[
              ['Status', <Badge value={endpoint.status} />], ['Disabled because', endpoint.disabled_reason], ['Failing since', dateTime(endpoint.failing_since)],
              ['Previous secret valid until', dateTime(endpoint.previous_secret_expires_at)], ['Events', endpoint.event_types.join(', ')], ['Description', endpoint.description || '—'],
            ]} />
          </Card>
          <Deliveries endpointId={endpoint.id} />
          {editing ? <WebhookForm endpoint={endpoint} onDone={() => setEditing(false)} /> : null}
          {confirm === 'rotate' ? (
            <Confirm title="Rotate secret" message={<p>Create a new signing secret? The old one keeps signing alongside it for a while, so receivers can switch.</p>} confirmLabel="Rotate" busy={rotate.isPending} onConfirm={() => rotate.mutate(undefined)} onClose={() => setConfirm(null)} />
          ) : null}
          {confirm === 'delete' ? (
            <Confirm title="Delete endpoint" message={<p>Delete this endpoint and stop its deliveries?</p>} confirmLabel="Delete" busy={remove.isPending} onConfirm={() => remove.mutate(undefined)} onClose={() => setConfirm(null)} />
          ) : null}
          {secret ? <SecretOnce title="New signing secret" label="signing secret" secret={secret} onClose={() => setSecret(null)} /> : null}
        </Page>
      )}
    </QueryView>
  );
}
