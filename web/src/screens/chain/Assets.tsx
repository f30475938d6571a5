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
import { dateTime, shortId, xp } from '../../lib/format';
import { useAction } from '../../lib/forms';
import { keys } from '../../lib/keys';
import { AssetEdit, AssetForm } from './AssetForm';

type Asset = Schemas['OnchainAsset'];
const column = columnHelper<Asset>();
const differenceColumn = columnHelper<Schemas['ReconciliationCustomer']>();

export function Assets() {
  const api = useApi();
  const { tenantId } = useTenant();
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const query = useQuery({
    queryKey: [...keys.assets(tenantId), 'list', page],
    queryFn: () => api.call(api.portal.listOnchainAssets({ params: { path: { tenantId }, query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
    refetchInterval: (current) => (current.state.data?.items.some((asset) => asset.status === 'deploying') ? 3000 : false),
  });
  const columns = column.columns([
    column.accessor((row) => row.name ?? row.key ?? row.id ?? '', { id: 'name', header: 'Asset', cell: (info) => <Link to="/t/$tenantId/onchain-assets/$assetId" params={{ tenantId, assetId: info.row.original.id ?? '' }}>{info.getValue()}</Link> }),
    column.accessor((row) => row.key ?? '—', { id: 'key', header: 'Key' }),
    column.accessor((row) => row.type ?? '', { id: 'type', header: 'Type' }),
    column.accessor((row) => row.chain_id ?? '', { id: 'chain', header: 'Chain' }),
    column.accessor((row) => row.status ?? '', { id: 'status', header: 'Status', cell: (info) => <Badge value={info.getValue()} /> }),
    column.accessor((row) => row.total_owners ?? 0, { id: 'owners', header: 'Owners' }),
  ]);
  return (
    <Page title="Onchain assets" actions={<Allowed to="manage_onchain_assets"><Button variant="primary" onClick={() => setCreating(true)}>New asset</Button></Allowed>}>
      <QueryView query={query} what="Loading assets">
        {(result) => (
          <>
            <DataTable caption="Onchain assets" columns={columns} data={result.items} empty="No onchain assets yet." />
            <Pager page={result.page} totalPages={result.total_pages} totalCount={result.total_count} onPage={setPage} />
          </>
        )}
      </QueryView>
      {creating ? <AssetForm onClose={() => setCreating(false)} /> : null}
    </Page>
  );
}

function Reconciliation({ assetId }: { assetId: string }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const query = useQuery({
    queryKey: [...keys.assets(tenantId), 'reconciliation', assetId],
    queryFn: () => api.call(api.portal.getOnchainAssetReconciliation({ params: { path: { tenantId, id: assetId } } })),
  });
  const columns = differenceColumn.columns([
    differenceColumn.accessor((row) => row.user_id ?? 'not a platform wallet', { id: 'customer', header: 'Customer' }),
    differenceColumn.accessor((row) => row.wallet_address ?? '', { id: 'wallet', header: 'Wallet', cell: (info) => <code title={info.getValue()}>{shortId(info.getValue())}</code> }),
    differenceColumn.accessor('ledger_balance', { header: 'Ledger', cell: (info) => xp(info.getValue()) }),
    differenceColumn.accessor('onchain_balance', { header: 'Onchain', cell: (info) => xp(info.getValue()) }),
    differenceColumn.accessor('difference', { header: 'Difference', cell: (info) => xp(info.getValue()) }),
  ]);
  return (
    <Card title="Reconciliation" actions={<Button onClick={() => void query.refetch()}>Refresh</Button>}>
      <QueryView query={query} what="Comparing ledger and chain">
        {(result) => (
          <>
            <Facts
              items={[
                ['Ledger total', xp(result.ledger_total)],
                ['Onchain total', xp(result.onchain_total)],
                ['Difference', <Badge value={result.difference === '0' ? 'active' : 'failed'} />],
                ['Total supply', result.total_supply === null ? '—' : xp(result.total_supply)],
                ['Supply difference', result.supply_difference === null ? '—' : <Badge value={result.supply_difference === '0' ? 'active' : 'failed'} />],
                ['As of block', result.last_indexed_block ?? '—'],
              ]}
            />
            <p className="hint">{`Base units (× 10^${result.decimals}). ${result.difference === '0' ? 'Ledger and chain agree.' : `Difference: ${xp(result.difference)}.`}`}</p>
            {result.supply_difference !== null && result.supply_difference !== '0' ? (
              <p className="hint">{`The token's supply differs from the ledger by ${xp(result.supply_difference)}: units exist (or were burned) outside this platform's settlements.`}</p>
            ) : null}
            <DataTable caption="Customers whose balances differ" columns={columns} data={result.customers} empty="No customer differs." />
          </>
        )}
      </QueryView>
    </Card>
  );
}

export function AssetPage() {
  const api = useApi();
  const navigate = useNavigate();
  const { tenantId } = useTenant();
  const { assetId } = useParams({ from: '/t/$tenantId/onchain-assets/$assetId' });
  const [deleting, setDeleting] = useState(false);
  const [editing, setEditing] = useState(false);
  const query = useQuery({
    queryKey: [...keys.assets(tenantId), 'one', assetId],
    queryFn: () => api.call(api.portal.getOnchainAsset({ params: { path: { tenantId, id: assetId } } })),
    refetchInterval: (current) => (current.state.data?.status === 'deploying' ? 3000 : false),
  });
  const path = { params: { path: { tenantId, id: assetId } } };
  const setStatus = useAction((status: 'active' | 'inactive') => api.call(api.portal.updateOnchainAsset({ ...path, body: { status } })), { invalidate: [keys.assets(tenantId)], success: (asset) => `Asset ${asset.status ?? ''}.` });
  const remove = useAction(() => api.call(api.portal.deleteOnchainAsset(path)), {
    invalidate: [keys.assets(tenantId)], success: 'Asset deleted.', onSuccess: () => void navigate({ to: '/t/$tenantId/onchain-assets', params: { tenantId } }),
  });
  return (
    <QueryView query={query} what="Loading the asset">
      {(asset) => (
        <Page
          title={asset.name ?? asset.key ?? assetId}
          actions={
            <Allowed to="manage_onchain_assets">
              <div className="row">
                {asset.status === 'active' || asset.status === 'inactive' ? <Button onClick={() => setStatus.mutate(asset.status === 'active' ? 'inactive' : 'active')}>{asset.status === 'active' ? 'Deactivate' : 'Activate'}</Button> : null}
                <Button onClick={() => setEditing(true)}>Edit</Button>
                <Button variant="danger" onClick={() => setDeleting(true)}>Delete</Button>
              </div>
            </Allowed>
          }
        >
          <Card title="Asset">
            <Facts items={[
              ['Status', <Badge value={asset.status ?? ''} />], ['Type', asset.type], ['Key', asset.key], ['Symbol', asset.symbol], ['Decimals', asset.decimals],
              ['Chain', asset.chain_id], ['Address', asset.asset_address ? <code>{asset.asset_address}</code> : 'Not deployed yet'], ['Deploy transaction', asset.deploy_tx_hash ? <code>{asset.deploy_tx_hash}</code> : null],
              ['Deployed', dateTime(asset.deployed_at)], ['Owners', asset.total_owners], ['Transfers', asset.total_txns],
            ]} />
          </Card>
          {asset.status === 'deploying' ? <p className="note note-warn" role="status">Deploying: this page refreshes until the contract is mined.</p> : <Reconciliation assetId={assetId} />}
          {editing ? <AssetEdit asset={asset} onClose={() => setEditing(false)} /> : null}
          {deleting ? <Confirm title="Delete asset" message={<p>Delete {asset.name ?? 'this asset'}? Rewards delivering it must be changed first (the API says so if any remain).</p>} confirmLabel="Delete" busy={remove.isPending} onConfirm={() => remove.mutate(undefined)} onClose={() => setDeleting(false)} /> : null}
        </Page>
      )}
    </QueryView>
  );
}
