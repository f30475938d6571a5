import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { useApi, useTenant } from '../../context/providers';
import { Dialog } from '../../components/Dialog';
import { Button, ErrorNote, Field } from '../../components/ui';
import { useFormMutation } from '../../lib/forms';
import { keys } from '../../lib/keys';
import { collect, limits, maxLength, required } from '../../lib/rules';

type Endpoint = Schemas['WebhookEndpoint'];
type EventType = Endpoint['event_types'][number];
type Draft = { url: string; description: string; event_types: EventType[] };

/** Every event type once, in the order offered: typed by the generated union, so a type the API adds fails this build until it is listed here. */
const everyEventType: Record<EventType, true> = {
  'customer.created': true, 'customer.status_changed': true, 'customer.tier_changed': true, 'customer.erased': true, 'xp.transaction.completed': true, 'xp.transaction.failed': true,
  'xp.expiring': true, 'xp.expired': true, 'redemption.completed': true, 'redemption.failed': true, 'redemption.canceled': true,
  'onchain.transaction.succeeded': true, 'onchain.transaction.failed': true,
};
export const eventTypes = Object.keys(everyEventType) as EventType[];

function isUrl(value: string): boolean {
  try {
    return ['https:', 'http:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

export function validateWebhook(draft: Draft) {
  return collect([
    required('url', draft.url),
    ['url', !isUrl(draft.url), 'An absolute URL, e.g. https://example.com/webhooks/loyalty.'],
    maxLength('url', draft.url, limits.webhookUrl),
    maxLength('description', draft.description, limits.webhookDescription),
    ['event_types', draft.event_types.length === 0, 'Pick at least one event.'],
  ]);
}

/** Create (answers the endpoint with its secret, shown once by the caller) or edit an endpoint. */
export function WebhookForm({ endpoint, onCreated, onDone }: { endpoint: Endpoint | null; onCreated?: (created: Schemas['WebhookEndpointWithSecret']) => void; onDone: () => void }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const [draft, setDraft] = useState<Draft>({ url: endpoint?.url ?? '', description: endpoint?.description ?? '', event_types: endpoint?.event_types ?? [] });
  const form = useFormMutation(
    async (values: Draft) => {
      const body = { ...values, url: values.url.trim() };
      if (endpoint) await api.call(api.portal.updateWebhookEndpoint({ params: { path: { tenantId, id: endpoint.id } }, body }));
      else onCreated?.(await api.call(api.portal.createWebhookEndpoint({ params: { path: { tenantId } }, body })));
    },
    { validate: validateWebhook, invalidate: [keys.webhooks(tenantId)], ...(endpoint ? { success: 'Endpoint saved.' } : {}), onSuccess: onDone },
  );
  const toggle = (type: EventType, on: boolean) => setDraft({ ...draft, event_types: on ? [...draft.event_types, type] : draft.event_types.filter((value) => value !== type) });
  return (
    <Dialog title={endpoint ? 'Edit endpoint' : 'New webhook endpoint'} onClose={onDone}>
      <form className="form" noValidate onSubmit={(event) => { event.preventDefault(); form.submit(draft); }}>
        {form.formError ? <ErrorNote message={form.formError} requestId={form.formRequestId} /> : null}
        <Field label="URL" error={form.fieldErrors.url} hint="https on the public internet; redirects are not followed">
          <input type="url" value={draft.url} maxLength={limits.webhookUrl} onChange={(event) => setDraft({ ...draft, url: event.target.value })} />
        </Field>
        <Field label="Description" error={form.fieldErrors.description}>
          <input value={draft.description} maxLength={limits.webhookDescription} onChange={(event) => setDraft({ ...draft, description: event.target.value })} />
        </Field>
        <fieldset className="field">
          <legend>Events</legend>
          <div className="checks">
            {eventTypes.map((type) => (
              <label key={type}><input type="checkbox" checked={draft.event_types.includes(type)} onChange={(event) => toggle(type, event.target.checked)} /> {type}</label>
            ))}
          </div>
          {form.fieldErrors.event_types ? <small className="error" role="alert">{form.fieldErrors.event_types}</small> : null}
        </fieldset>
        <div className="dialog-footer"><Button onClick={onDone}>Cancel</Button><Button type="submit" variant="primary" busy={form.busy}>{endpoint ? 'Save endpoint' : 'Create endpoint'}</Button></div>
      </form>
    </Dialog>
  );
}
