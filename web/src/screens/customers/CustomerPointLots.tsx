import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { useApi, useTenant } from '../../context/providers';
import { PAGE_SIZE } from '../../lib/search';
import { columnHelper, DataTable, Pager } from '../../components/DataTable';
import { QueryView } from '../../components/QueryView';
import { Badge, Button, Card, Field } from '../../components/ui';
import { dateTime, shortId, xp } from '../../lib/format';
import { keys } from '../../lib/keys';
import { TransactionDetails } from './TransactionDetails';

type PointLot = Schemas['PointLot'];
type LotStatus = PointLot['status'];
const column = columnHelper<PointLot>();

/** Each lot status once, in lifecycle order: typed by the generated union, so a status the API adds fails this build until it is listed. */
const everyLotStatus: Record<LotStatus, true> = { pending: true, active: true, spent: true, expired: true, reversed: true };
const lotStatuses = Object.keys(everyLotStatus) as LotStatus[];

/** One lot per credit (`GET …/point-lots`, newest first): what is left of it, when it became or becomes spendable, when it expires. */
export function CustomerPointLots({ customerId }: { customerId: string }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<LotStatus | ''>('');
  const [open, setOpen] = useState<string | null>(null);
  const query = useQuery({
    queryKey: [...keys.customers(tenantId), 'one', customerId, 'point-lots', { status, page, limit: PAGE_SIZE }],
    queryFn: () => api.call(api.portal.listCustomerPointLots({ params: { path: { tenantId, userId: customerId }, query: { page, limit: PAGE_SIZE, ...(status ? { status } : {}) } } })),
    placeholderData: keepPreviousData,
  });
  const columns = column.columns([
    column.accessor('amount', { header: 'Amount', cell: (info) => xp(info.getValue()) }),
    column.accessor('remaining', { header: 'Remaining', cell: (info) => xp(info.getValue()) }),
    column.accessor('status', { header: 'Status', cell: (info) => <Badge value={info.getValue()} /> }),
    column.accessor('available_at', { header: 'Available from', cell: (info) => dateTime(info.getValue()) }),
    column.accessor('expires_at', { header: 'Expires at', cell: (info) => info.getValue() === null ? <span className="muted">Never</span> : dateTime(info.getValue()) }),
    column.accessor('internal_transaction_id', {
      header: 'Credit',
      cell: (info) => {
        const id = info.getValue();
        // Null: points carried over from a balance held before lots existed, with no credit of their own.
        if (id === null) return <span className="muted">carried over</span>;
        return <Button variant="link" onClick={() => setOpen(id)} aria-label={`Details of transaction ${id}`}><code>{shortId(id)}</code></Button>;
      },
    }),
  ]);
  return (
    <Card title="Point lots">
      <div className="filters">
        <Field label="Lot status">
          <select value={status} onChange={(event) => { setStatus(lotStatuses.find((value) => value === event.target.value) ?? ''); setPage(1); }}>
            <option value="">Any</option>
            {lotStatuses.map((value) => <option key={value} value={value}>{value}</option>)}
          </select>
        </Field>
      </div>
      <QueryView query={query} what="Loading the point lots">
        {(result) => (
          <>
            <DataTable caption="Point lots" columns={columns} data={result.items} empty={status ? `No ${status} lots.` : 'No credits yet.'} />
            <Pager page={result.page} totalPages={result.total_pages} totalCount={result.total_count} onPage={setPage} />
          </>
        )}
      </QueryView>
      {open ? <TransactionDetails transactionId={open} onClose={() => setOpen(null)} /> : null}
    </Card>
  );
}
