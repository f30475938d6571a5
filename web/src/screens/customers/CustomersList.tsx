import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { customerStatuses, type Customer } from '../../api/types';
import { useApi, useTenant } from '../../context/providers';
import { columnHelper, DataTable, Pager } from '../../components/DataTable';
import { QueryView } from '../../components/QueryView';
import { Badge, Button, Field, Page } from '../../components/ui';
import { dateTime, xp } from '../../lib/format';
import { collect, emailAddress } from '../../lib/rules';
import { keys } from '../../lib/keys';
import { PAGE_SIZE, type CustomerSearch } from '../../lib/search';

const column = columnHelper<Customer>();

/** The filter form; re-created from the URL when it changes (back/forward), so it always shows the filters in effect. */
function Filters({ search, apply }: { search: CustomerSearch; apply: (next: Partial<CustomerSearch>) => void }) {
  const [draft, setDraft] = useState({ external_id: search.external_id ?? '', email: search.email ?? '', status: search.status ?? '' });
  const [emailError, setEmailError] = useState<string | undefined>();
  return (
    <form
      className="filters"
      role="search"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        // The API's rule, not the browser's looser one for type="email": a filter it would refuse is not sent.
        const email = draft.email.trim();
        const errors = email ? collect([emailAddress('email', email)]) : {};
        setEmailError(errors.email);
        if (errors.email) return;
        const status = customerStatuses.find((value) => value === draft.status);
        apply({
          ...(draft.external_id.trim() ? { external_id: draft.external_id.trim() } : {}),
          ...(email ? { email } : {}),
          ...(status ? { status } : {}),
        });
      }}
    >
      <Field label="External id" hint="Exact match">
        <input value={draft.external_id} onChange={(event) => setDraft({ ...draft, external_id: event.target.value })} />
      </Field>
      <Field label="Email" hint="Exact, any case" error={emailError}>
        <input type="email" value={draft.email} onChange={(event) => setDraft({ ...draft, email: event.target.value })} />
      </Field>
      <Field label="Status">
        <select value={draft.status} onChange={(event) => setDraft({ ...draft, status: event.target.value })}>
          <option value="">Any</option>
          {customerStatuses.map((status) => <option key={status} value={status}>{status}</option>)}
        </select>
      </Field>
      <div className="filter-actions">
        <Button type="submit" variant="primary">Search</Button>
        <Button
          onClick={() => {
            setDraft({ external_id: '', email: '', status: '' });
            apply({});
          }}
        >
          Clear
        </Button>
      </div>
    </form>
  );
}

export function CustomersList() {
  const api = useApi();
  const { tenantId } = useTenant();
  const search = useSearch({ from: '/t/$tenantId/customers' });
  const navigate = useNavigate({ from: '/t/$tenantId/customers' });
  const query = useQuery({
    queryKey: [...keys.customers(tenantId), 'list', search],
    queryFn: () => api.call(api.portal.listCustomers({ params: { path: { tenantId }, query: { ...search, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const columns = column.columns([
    column.accessor('external_id', {
      header: 'External id',
      cell: (info) => <Link to="/t/$tenantId/customers/$customerId" params={{ tenantId, customerId: info.row.original.id }} search={{ page: 1 }}>{info.getValue()}</Link>,
    }),
    column.accessor('email', { header: 'Email', cell: (info) => info.getValue() ?? '—' }),
    column.accessor('status', { header: 'Status', cell: (info) => <Badge value={info.getValue()} /> }),
    column.accessor((row) => row.tier?.tier_name ?? '—', { id: 'tier', header: 'Tier' }),
    column.accessor('xp_balance', { header: 'XP balance', cell: (info) => xp(info.getValue()) }),
    column.accessor('lifetime_xp', { header: 'Lifetime XP', cell: (info) => xp(info.getValue()) }),
    column.accessor('created_at', { header: 'Created', cell: (info) => dateTime(info.getValue()) }),
  ]);
  const apply = (next: Partial<CustomerSearch>) => void navigate({ search: { page: 1, ...next } });
  return (
    <Page title="Customers">
      <Filters key={JSON.stringify(search)} search={search} apply={apply} />
      <p className="hint">Customers are created by your backend through the gateway API (API keys).</p>
      <QueryView query={query} what="Loading customers">
        {(page) => (
          <>
            <DataTable caption="Customers" columns={columns} data={page.items} empty="No customer matches." />
            <Pager page={page.page} totalPages={page.total_pages} totalCount={page.total_count} onPage={(next) => void navigate({ search: { ...search, page: next } })} />
          </>
        )}
      </QueryView>
    </Page>
  );
}
