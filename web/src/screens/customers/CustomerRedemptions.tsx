import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useTenant } from '../../context/providers';
import { PAGE_SIZE } from '../../lib/search';
import { DataTable, Pager } from '../../components/DataTable';
import { QueryView } from '../../components/QueryView';
import { Card } from '../../components/ui';
import { keys } from '../../lib/keys';
import { useRedemptionColumns } from '../program/Redemptions';

/** The customer's redemptions (each links to its page, where a completed one can be canceled). */
export function CustomerRedemptions({ customerId }: { customerId: string }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: [...keys.redemptions(tenantId), 'customer', customerId, page],
    queryFn: () => api.call(api.portal.listRedemptions({ params: { path: { tenantId }, query: { user_id: customerId, page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const columns = useRedemptionColumns(tenantId);
  return (
    <Card title="Redemptions">
      <QueryView query={query} what="Loading redemptions">
        {(result) => (
          <>
            <DataTable caption="Customer redemptions" columns={columns} data={result.items} empty="No redemptions yet." />
            <Pager page={result.page} totalPages={result.total_pages} totalCount={result.total_count} onPage={setPage} />
          </>
        )}
      </QueryView>
    </Card>
  );
}
