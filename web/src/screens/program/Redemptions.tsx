import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { Allowed, useApi, useTenant } from '../../context/providers';
import { PAGE_SIZE } from '../../lib/search';
import { columnHelper, DataTable, Pager } from '../../components/DataTable';
import { Confirm } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Badge, Button, Card, Facts, Field, Page } from '../../components/ui';
import { dateTime, xp } from '../../lib/format';
import { useAction } from '../../lib/forms';
import { keys } from '../../lib/keys';

type Redemption = Schemas['Redemption'];
type Status = Redemption['status'];
const statuses: Status[] = ['initialized', 'pending', 'completed', 'failed', 'canceled'];
const column = columnHelper<Redemption>();

export function useRedemptionColumns(tenantId: string) {
  return column.columns([
    column.accessor('created_at', { header: 'When', cell: (info) => <Link to="/t/$tenantId/redemptions/$redemptionId" params={{ tenantId, redemptionId: info.row.original.id }}>{dateTime(info.getValue())}</Link> }),
    column.accessor((row) => row.reward.title, { id: 'reward', header: 'Reward' }),
    column.accessor((row) => row.user.email || row.user.username || row.user_id, {
      id: 'customer', header: 'Customer',
      cell: (info) => <Link to="/t/$tenantId/customers/$customerId" params={{ tenantId, customerId: info.row.original.user_id }} search={{ page: 1 }}>{info.getValue()}</Link>,
    }),
    column.accessor('xp_spent', { header: 'XP', cell: (info) => xp(info.getValue()) }),
    column.accessor('status', { header: 'Status', cell: (info) => <Badge value={info.getValue()} /> }),
  ]);
}

export function Redemptions() {
  const api = useApi();
  const { tenantId } = useTenant();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<Status | ''>('');
  const query = useQuery({
    queryKey: [...keys.redemptions(tenantId), 'list', page, status],
    queryFn: () => api.call(api.portal.listRedemptions({ params: { path: { tenantId }, query: { page, limit: PAGE_SIZE, ...(status ? { status } : {}) } } })),
    placeholderData: keepPreviousData,
  });
  const columns = useRedemptionColumns(tenantId);
  return (
    <Page title="Redemptions">
      <div className="filters">
        <Field label="Status">
          <select value={status} onChange={(event) => { setStatus(statuses.find((value) => value === event.target.value) ?? ''); setPage(1); }}>
            <option value="">Any</option>
            {statuses.map((value) => <option key={value} value={value}>{value}</option>)}
          </select>
        </Field>
      </div>
      <p className="hint">Customers redeem through your backend (gateway API); here you can follow and cancel redemptions.</p>
      <QueryView query={query} what="Loading redemptions">
        {(result) => (
          <>
            <DataTable caption="Redemptions" columns={columns} data={result.items} empty="No redemptions yet." />
            <Pager page={result.page} totalPages={result.total_pages} totalCount={result.total_count} onPage={setPage} />
          </>
        )}
      </QueryView>
    </Page>
  );
}

export function RedemptionPage() {
  const api = useApi();
  const { tenantId } = useTenant();
  const { redemptionId } = useParams({ from: '/t/$tenantId/redemptions/$redemptionId' });
  const [confirming, setConfirming] = useState(false);
  const query = useQuery({
    queryKey: [...keys.redemptions(tenantId), 'one', redemptionId],
    queryFn: () => api.call(api.portal.getRedemption({ params: { path: { tenantId, redemption_id: redemptionId } } })),
  });
  const cancel = useAction(() => api.call(api.portal.cancelRedemption({ params: { path: { tenantId, redemption_id: redemptionId } } })), {
    invalidate: [keys.redemptions(tenantId), keys.customers(tenantId), keys.transactions(tenantId), keys.rewards(tenantId)],
    success: 'Redemption canceled; the XP went back to the customer.',
    onSuccess: () => setConfirming(false),
  });
  return (
    <QueryView query={query} what="Loading the redemption">
      {(redemption) => (
        <Page
          title={`Redemption of ${redemption.reward.title}`}
          actions={
            // Only a completed redemption can be canceled: one still settling onchain cannot (the API explains if tried).
            redemption.status === 'completed' ? <Allowed to="edit_program"><Button variant="danger" onClick={() => setConfirming(true)}>Cancel redemption</Button></Allowed> : null
          }
        >
          <Card title="Details">
            <Facts
              items={[
                ['Status', <Badge value={redemption.status} />],
                ['XP spent', xp(redemption.xp_spent)],
                ['Reward', redemption.reward.title],
                ['Customer', <Link to="/t/$tenantId/customers/$customerId" params={{ tenantId, customerId: redemption.user_id }} search={{ page: 1 }}>{redemption.user.email || redemption.user_id}</Link>],
                ['Onchain asset', redemption.reward.onchain_asset ? `${redemption.reward.onchain_asset.name ?? redemption.reward.onchain_asset.type} (chain ${redemption.reward.onchain_asset.chain_id})` : 'Off-chain'],
                ['Id', <code>{redemption.id}</code>],
                ['Created', dateTime(redemption.created_at)],
                ['Updated', dateTime(redemption.updated_at)],
              ]}
            />
          </Card>
          {confirming ? (
            <Confirm title="Cancel redemption" message={<p>Cancel this redemption? {xp(redemption.xp_spent)} XP goes back to the customer.</p>} confirmLabel="Cancel redemption" busy={cancel.isPending} onConfirm={() => cancel.mutate(undefined)} onClose={() => setConfirming(false)} />
          ) : null}
        </Page>
      )}
    </QueryView>
  );
}
