import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { useApi, useTenant } from '../../context/providers';
import { PAGE_SIZE } from '../../lib/search';
import { columnHelper, DataTable, Pager } from '../../components/DataTable';
import { QueryView } from '../../components/QueryView';
import { Card } from '../../components/ui';
import { dateTime, xp } from '../../lib/format';
import { keys } from '../../lib/keys';

type Event = Schemas['Event'];
const column = columnHelper<Event>();

/** Each rule's part of an event's XP (a capped one says so: a limit or budget cut it). */
function Effects({ effects }: { effects: Event['effects'] }) {
  if (effects.length === 0) return <span className="muted">No rule applied</span>;
  return (
    <ul className="plain">
      {effects.map((effect) => (
        <li key={effect.rule_id}>{effect.rule_name}: {xp(effect.amount)} XP{effect.capped ? ' (capped)' : ''}</li>
      ))}
    </ul>
  );
}

/** What the tenant's backend reported about the customer (`POST /gateway/events`), newest first, with the XP the rules gave. */
export function CustomerEvents({ customerId }: { customerId: string }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: [...keys.events(tenantId), { user_id: customerId, page }],
    queryFn: () => api.call(api.portal.listEvents({ params: { path: { tenantId }, query: { user_id: customerId, page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const columns = column.columns([
    column.accessor('occurred_at', { header: 'When', cell: (info) => dateTime(info.getValue()) }),
    column.accessor('type', { header: 'Event', cell: (info) => <code>{info.getValue()}</code> }),
    column.accessor('reference', { header: 'Reference', cell: (info) => info.getValue() ?? '—' }),
    column.accessor('xp_awarded', { header: 'XP', cell: (info) => xp(info.getValue()) }),
    column.accessor('effects', { header: 'Rules', cell: (info) => <Effects effects={info.getValue()} /> }),
  ]);
  return (
    <Card title="Events">
      <QueryView query={query} what="Loading the events">
        {(result) => (
          <>
            <DataTable caption="Events" columns={columns} data={result.items} empty="No events reported yet." />
            <Pager page={result.page} totalPages={result.total_pages} totalCount={result.total_count} onPage={setPage} />
          </>
        )}
      </QueryView>
    </Card>
  );
}
