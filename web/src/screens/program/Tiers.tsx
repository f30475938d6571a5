import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { Allowed, useApi, useTenant } from '../../context/providers';
import { PAGE_SIZE } from '../../lib/search';
import { columnHelper, DataTable, Pager } from '../../components/DataTable';
import { Confirm, Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Button, ErrorNote, Field, Page } from '../../components/ui';
import { dateTime, xp } from '../../lib/format';
import { useAction, useFormMutation } from '../../lib/forms';
import { keys } from '../../lib/keys';
import { collect, isWholeNumber, limits, maxLength, required } from '../../lib/rules';

type Tier = Schemas['TierRule'];
type Draft = { tier_name: string; min_xp_threshold: string; benefits_description: string; color: string; icon: string };
const column = columnHelper<Tier>();

/** Only a hex color is painted: a tier stored before the API checked colors may hold other CSS (a `url(...)` the browser would fetch). */
const swatch = (color: string) => (color !== '' && limits.color.test(color) ? color : 'transparent');

export function validateTier(draft: Draft) {
  return collect([
    required('tier_name', draft.tier_name),
    maxLength('tier_name', draft.tier_name, limits.tierName),
    required('min_xp_threshold', draft.min_xp_threshold),
    ['min_xp_threshold', !isWholeNumber(draft.min_xp_threshold) || !Number.isSafeInteger(Number(draft.min_xp_threshold)), 'A whole number, 0 or more.'],
    maxLength('benefits_description', draft.benefits_description, limits.benefits),
    ['color', !limits.color.test(draft.color), 'A hex color such as #FFD700 (#rgb, #rgba, #rrggbb or #rrggbbaa), or empty.'],
    maxLength('icon', draft.icon, limits.icon.max),
    ['icon', !limits.icon.pattern.test(draft.icon), 'An https URL such as https://cdn.example.com/gold.svg, or empty.'],
  ]);
}

function TierForm({ tier, onDone }: { tier: Tier | null; onDone: () => void }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const [draft, setDraft] = useState<Draft>({
    tier_name: tier?.tier_name ?? '', min_xp_threshold: tier?.min_xp_threshold ?? '', benefits_description: tier?.benefits_description ?? '', color: tier?.color ?? '', icon: tier?.icon ?? '',
  });
  const form = useFormMutation(
    async (values: Draft) => {
      const body = { ...values, tier_name: values.tier_name.trim(), min_xp_threshold: Number(values.min_xp_threshold) };
      if (tier) await api.call(api.portal.replaceTier({ params: { path: { tenantId, tierId: tier.id } }, body }));
      else await api.call(api.portal.createTier({ params: { path: { tenantId } }, body }));
    },
    // A threshold moves customers between tiers: their records change too.
    { validate: validateTier, invalidate: [keys.tiers(tenantId), keys.customers(tenantId)], success: tier ? 'Tier saved.' : 'Tier created.', onSuccess: onDone },
  );
  const set = (name: keyof Draft) => (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value });
  return (
    <Dialog title={tier ? `Edit ${tier.tier_name}` : 'New tier'} onClose={onDone}>
      <form className="form" noValidate onSubmit={(event) => { event.preventDefault(); form.submit(draft); }}>
        {form.formError ? <ErrorNote message={form.formError} requestId={form.formRequestId} /> : null}
        <Field label="Name" error={form.fieldErrors.tier_name}><input value={draft.tier_name} maxLength={limits.tierName} onChange={set('tier_name')} /></Field>
        <Field label="Minimum lifetime XP" error={form.fieldErrors.min_xp_threshold} hint="A customer is in the tier with the highest threshold not above their lifetime XP">
          <input inputMode="numeric" value={draft.min_xp_threshold} onChange={set('min_xp_threshold')} />
        </Field>
        <Field label="Benefits" error={form.fieldErrors.benefits_description}><textarea rows={3} maxLength={limits.benefits} value={draft.benefits_description} onChange={set('benefits_description')} /></Field>
        <Field label="Color" error={form.fieldErrors.color} hint="e.g. #FFD700"><input value={draft.color} onChange={set('color')} /></Field>
        <Field label="Icon URL" error={form.fieldErrors.icon}><input value={draft.icon} maxLength={limits.icon.max} onChange={set('icon')} /></Field>
        <div className="dialog-footer"><Button onClick={onDone}>Cancel</Button><Button type="submit" variant="primary" busy={form.busy}>{tier ? 'Save tier' : 'Create tier'}</Button></div>
      </form>
    </Dialog>
  );
}

export function Tiers() {
  const api = useApi();
  const { tenantId, can } = useTenant();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Tier | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Tier | null>(null);
  const query = useQuery({
    queryKey: [...keys.tiers(tenantId), 'list', page],
    queryFn: () => api.call(api.portal.listTiers({ params: { path: { tenantId }, query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const remove = useAction((tier: Tier) => api.call(api.portal.deleteTier({ params: { path: { tenantId, tierId: tier.id } } })), {
    invalidate: [keys.tiers(tenantId), keys.customers(tenantId)], success: 'Tier deleted.', onSuccess: () => setDeleting(null),
  });
  const columns = column.columns([
    column.accessor('tier_name', { header: 'Tier', cell: (info) => <span><span className="swatch" style={{ background: swatch(info.row.original.color) }} aria-hidden="true" /> {info.getValue()}</span> }),
    column.accessor('min_xp_threshold', { header: 'From lifetime XP', cell: (info) => xp(info.getValue()) }),
    column.accessor('benefits_description', { header: 'Benefits' }),
    column.accessor('updated_at', { header: 'Updated', cell: (info) => dateTime(info.getValue()) }),
    ...(can('edit_program')
      ? [column.display({ id: 'actions', header: 'Actions', cell: (info) => (
          <div className="row">
            <Button variant="link" onClick={() => setEditing(info.row.original)}>Edit</Button>
            <Button variant="link" onClick={() => setDeleting(info.row.original)}>Delete</Button>
          </div>
        ) })]
      : []),
  ]);
  return (
    <Page title="Tiers" actions={<Allowed to="edit_program"><Button variant="primary" onClick={() => setEditing('new')}>New tier</Button></Allowed>}>
      <QueryView query={query} what="Loading tiers">
        {(result) => (
          <>
            <DataTable caption="Tiers" columns={columns} data={result.items} empty="No tiers yet." />
            <Pager page={result.page} totalPages={result.total_pages} totalCount={result.total_count} onPage={setPage} />
          </>
        )}
      </QueryView>
      {editing ? <TierForm tier={editing === 'new' ? null : editing} onDone={() => setEditing(null)} /> : null}
      {deleting ? (
        <Confirm title="Delete tier" message={<p>Delete {deleting.tier_name}? Its customers move to the next lower tier.</p>} confirmLabel="Delete" busy={remove.isPending} onConfirm={() => remove.mutate(deleting)} onClose={() => setDeleting(null)} />
      ) : null}
    </Page>
  );
}
