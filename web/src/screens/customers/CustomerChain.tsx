import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { useApi, useTenant } from '../../context/providers';
import { PAGE_SIZE } from '../../lib/search';
import { columnHelper, DataTable, Pager } from '../../components/DataTable';
import { QueryView } from '../../components/QueryView';
import { Badge, Card, Loading } from '../../components/ui';
import { dateTime, shortId, xp } from '../../lib/format';
import { keys } from '../../lib/keys';

const column = columnHelper<Schemas['CustomerAssetBalance']>();
const balanceColumns = column.columns([
  column.accessor((row) => row.onchain_asset.name ?? row.onchain_asset.key ?? row.asset_address, { id: 'asset', header: 'Asset' }),
  column.accessor('balance', { header: 'Balance (base units)', cell: (info) => xp(info.getValue()) }),
  column.accessor('token_id', { header: 'Token id', cell: (info) => info.getValue() || '—' }),
  column.accessor('user_address', { header: 'Wallet', cell: (info) => <code title={info.getValue()}>{shortId(info.getValue())}</code> }),
  column.accessor('chain_id', { header: 'Chain' }),
  column.accessor('last_updated_block', { header: 'Block' }),
  column.accessor('updated_at', { header: 'Updated', cell: (info) => dateTime(info.getValue()) }),
]);

/** Balances indexed from the chain for the customer's custodial wallet. */
export function CustomerBalances({ customerId }: { customerId: string }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: [...keys.customers(tenantId), 'balances', customerId, page],
    queryFn: () => api.call(api.portal.listCustomerBalances({ params: { path: { tenantId, userId: customerId }, query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <Card title="Onchain balances">
      <QueryView query={query} what="Loading balances">
        {(result) => (
          <>
            <DataTable caption="Onchain balances" columns={balanceColumns} data={result.items} empty="No onchain balances." />
            <Pager page={result.page} totalPages={result.total_pages} totalCount={result.total_count} onPage={setPage} />
          </>
        )}
      </QueryView>
    </Card>
  );
}

/** Eligibility per tier, as the API answers it (`lifetime_xp >= min_xp_threshold`). */
export function CustomerEligibility({ customerId }: { customerId: string }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const tiers = useQuery({
    queryKey: [...keys.tiers(tenantId), 'all'],
    queryFn: () => api.call(api.portal.listTiers({ params: { path: { tenantId }, query: { limit: 100 } } })),
  });
  const checks = useQueries({
    queries: (tiers.data?.items ?? []).map((tier) => ({
      queryKey: [...keys.customers(tenantId), 'eligibility', customerId, tier.id],
      queryFn: () => api.call(api.portal.getCustomerEligibility({ params: { path: { tenantId, userId: customerId, tierId: tier.id } } })),
    })),
  });
  return (
    <Card title="Tier eligibility">
      <QueryView query={tiers} what="Loading tiers">
        {(result) =>
          result.items.length === 0 ? (
            <p className="muted">No tiers yet.</p>
          ) : (
            <ul className="plain eligibility">
              {result.items.map((tier, index) => {
                const check = checks[index];
                return (
                  <li key={tier.id}>
                    <span>{tier.tier_name} <small className="muted">from {xp(tier.min_xp_threshold)} XP</small></span>
                    {!check || check.isPending ? <Loading what="Checking" /> : check.isError ? <span className="error">unknown</span> : <Badge value={check.data.eligible ? 'eligible' : 'not eligible'} />}
                  </li>
                );
              })}
            </ul>
          )
        }
      </QueryView>
    </Card>
  );
}
