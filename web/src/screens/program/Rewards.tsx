import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { Allowed, useApi, useTenant } from '../../context/providers';
import { PAGE_SIZE } from '../../lib/search';
import { columnHelper, DataTable, Pager } from '../../components/DataTable';
import { Confirm } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Badge, Button, Field, Page } from '../../components/ui';
import { xp } from '../../lib/format';
import { useAction } from '../../lib/forms';
import { keys } from '../../lib/keys';
import { useTierOptions } from './options';
import { RewardForm } from './RewardForm';

type Reward = Schemas['Reward'];
const column = columnHelper<Reward>();

/** Edits start from the reward as stored now, not from a list page that may be stale. */
function EditReward({ rewardId, onDone }: { rewardId: string; onDone: () => void }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const query = useQuery({
    queryKey: [...keys.rewards(tenantId), 'one', rewardId],
    queryFn: () => api.call(api.portal.getReward({ params: { path: { tenantId, rewardId } } })),
    staleTime: 0,
  });
  return <QueryView query={query} what="Loading the reward">{(reward) => <RewardForm reward={reward} onDone={onDone} />}</QueryView>;
}

export function Rewards() {
  const api = useApi();
  const { tenantId, can } = useTenant();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<Reward['status'] | ''>('');
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Reward | null>(null);
  const tiers = useTierOptions(tenantId);
  const tierName = (id: string | null) => (id ? tiers.data?.items.find((tier) => tier.id === id)?.tier_name ?? id : 'Any');
  const query = useQuery({
    queryKey: [...keys.rewards(tenantId), 'list', page, status],
    queryFn: () => api.call(api.portal.listRewards({ params: { path: { tenantId }, query: { page, limit: PAGE_SIZE, ...(status ? { status } : {}) } } })),
    placeholderData: keepPreviousData,
  });
  const remove = useAction((reward: Reward) => api.call(api.portal.deleteReward({ params: { path: { tenantId, rewardId: reward.id } } })), {
    invalidate: [keys.rewards(tenantId)], success: 'Reward deleted.', onSuccess: () => setDeleting(null),
  });
  const columns = column.columns([
    column.accessor('title', { header: 'Reward' }),
    column.accessor('status', { header: 'Status', cell: (info) => <Badge value={info.getValue()} /> }),
    column.accessor('xp_cost', { header: 'XP cost', cell: (info) => xp(info.getValue()) }),
    column.accessor('stock', { header: 'Stock', cell: (info) => info.getValue() ?? 'Unlimited' }),
    column.accessor('min_tier_id', { header: 'Tier gate', cell: (info) => tierName(info.getValue()) }),
    column.accessor('onchain_asset_id', { header: 'Onchain', cell: (info) => (info.getValue() ? 'Yes' : 'No') }),
    ...(can('edit_program')
      ? [column.display({ id: 'actions', header: 'Actions', cell: (info) => (
          <div className="row">
            <Button variant="link" onClick={() => setEditing(info.row.original.id)}>Edit</Button>
            <Button variant="link" onClick={() => setDeleting(info.row.original)}>Delete</Button>
          </div>
        ) })]
      : []),
  ]);
  return (
    <Page title="Rewards" actions={<Allowed to="edit_program"><Button variant="primary" onClick={() => setEditing('new')}>New reward</Button></Allowed>}>
      <div className="filters">
        <Field label="Status">
          <select value={status} onChange={(event) => { setStatus(event.target.value as Reward['status'] | ''); setPage(1); }}>
            <option value="">Any</option><option value="draft">draft</option><option value="active">active</option><option value="archived">archived</option>
          </select>
        </Field>
      </div>
      <QueryView query={query} what="Loading rewards">
        {(result) => (
          <>
            <DataTable caption="Rewards" columns={columns} data={result.items} empty="No rewards yet." />
            <Pager page={result.page} totalPages={result.total_pages} totalCount={result.total_count} onPage={setPage} />
          </>
        )}
      </QueryView>
      {editing === 'new' ? <RewardForm reward={null} onDone={() => setEditing(null)} /> : editing ? <EditReward rewardId={editing} onDone={() => setEditing(null)} /> : null}
      {deleting ? (
        <Confirm title="Delete reward" message={<p>Delete {deleting.title}? Past redemptions keep their record.</p>} confirmLabel="Delete" busy={remove.isPending} onConfirm={() => remove.mutate(deleting)} onClose={() => setDeleting(null)} />
      ) : null}
    </Page>
  );
}
