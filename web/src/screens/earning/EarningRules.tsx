import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { EVENT_TYPE_PATTERN } from '../../../../src/domain/earning-limits';
import { Allowed, useApi, useTenant } from '../../context/providers';
import { PAGE_SIZE } from '../../lib/search';
import { columnHelper, DataTable, Pager } from '../../components/DataTable';
import { Confirm } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Badge, Button, Field, Page } from '../../components/ui';
import { xp } from '../../lib/format';
import { useAction } from '../../lib/forms';
import { keys } from '../../lib/keys';
import type { EarningRule, RuleStatus } from './draft';
import { SimulatePanel } from './SimulatePanel';

const column = columnHelper<EarningRule>();
const statusFilters: RuleStatus[] = ['active', 'paused', 'archived'];

/** The status moves offered per status (PATCH `status`): a paused or archived rule comes back by activating it. */
const statusMoves: Record<RuleStatus, { to: RuleStatus; label: string }[]> = {
  active: [{ to: 'paused', label: 'Pause' }, { to: 'archived', label: 'Archive' }],
  paused: [{ to: 'active', label: 'Activate' }, { to: 'archived', label: 'Archive' }],
  archived: [{ to: 'active', label: 'Activate' }],
};
const moved: Record<RuleStatus, string> = { active: 'activated', paused: 'paused', archived: 'archived' };

function effectSummary(effect: EarningRule['effect']): string {
  if (effect.kind === 'fixed') return `${xp(effect.amount)} XP`;
  return `${effect.xp_per_unit} XP per ${effect.unit === '1' ? '' : `${effect.unit} `}${effect.property}`;
}

/** The program's time zone, which the limits' days, weeks, months and years count in (nothing while it loads). */
function TimeZoneNote() {
  const api = useApi();
  const { tenantId } = useTenant();
  const settings = useQuery({
    queryKey: keys.programSettings(tenantId),
    queryFn: () => api.call(api.portal.getProgramSettings({ params: { path: { tenantId } } })),
  });
  if (!settings.data) return null;
  return (
    <p className="hint">
      Limits per day, week, month and year count in the program&apos;s time zone, {settings.data.timezone} (<Link to="/t/$tenantId/program-settings" params={{ tenantId }}>program settings</Link>).
    </p>
  );
}

export function EarningRules() {
  const api = useApi();
  const navigate = useNavigate();
  const { tenantId, can } = useTenant();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<RuleStatus | ''>('');
  const [eventType, setEventType] = useState('');
  const [deleting, setDeleting] = useState<EarningRule | null>(null);
  // The filter is sent once it is an event type the API takes; while typing, the list stays as it was.
  const typeFilter = EVENT_TYPE_PATTERN.test(eventType.trim()) ? eventType.trim() : '';
  const query = useQuery({
    queryKey: [...keys.earningRules(tenantId), 'list', page, status, typeFilter],
    queryFn: () => api.call(api.portal.listEarningRules({ params: { path: { tenantId }, query: { page, limit: PAGE_SIZE, ...(status ? { status } : {}), ...(typeFilter ? { event_type: typeFilter } : {}) } } })),
    placeholderData: keepPreviousData,
  });
  const move = useAction(
    ({ rule, to }: { rule: EarningRule; to: RuleStatus }) => api.call(api.portal.updateEarningRule({ params: { path: { tenantId, id: rule.id } }, body: { status: to } })),
    { invalidate: [keys.earningRules(tenantId)], success: (rule) => `Rule ${rule.name} ${moved[rule.status]}.` },
  );
  const remove = useAction((rule: EarningRule) => api.call(api.portal.deleteEarningRule({ params: { path: { tenantId, id: rule.id } } })), {
    invalidate: [keys.earningRules(tenantId)], success: 'Rule deleted.', onSuccess: () => setDeleting(null),
  });
  const columns = column.columns([
    column.accessor('name', { header: 'Rule', cell: (info) => <Link to="/t/$tenantId/earning-rules/$ruleId" params={{ tenantId, ruleId: info.row.original.id }}>{info.getValue()}</Link> }),
    column.accessor('event_type', { header: 'Event type', cell: (info) => <code>{info.getValue()}</code> }),
    column.accessor('status', { header: 'Status', cell: (info) => <Badge value={info.getValue()} /> }),
    column.accessor('priority', { header: 'Priority' }),
    column.accessor('effect', { header: 'Gives', cell: (info) => effectSummary(info.getValue()) }),
    column.accessor((row) => row.counters.times_applied, { id: 'times_applied', header: 'Times applied', cell: (info) => info.getValue().toLocaleString('en-US') }),
    column.accessor((row) => row.counters.xp_awarded, { id: 'xp_awarded', header: 'XP awarded', cell: (info) => xp(info.getValue()) }),
    ...(can('edit_program')
      ? [column.display({ id: 'actions', header: 'Actions', cell: (info) => (
          <div className="row">
            {statusMoves[info.row.original.status].map((option) => (
              <Button key={option.to} variant="link" disabled={move.isPending} onClick={() => move.mutate({ rule: info.row.original, to: option.to })}>{option.label}</Button>
            ))}
            <Button variant="link" onClick={() => setDeleting(info.row.original)}>Delete</Button>
          </div>
        ) })]
      : []),
  ]);
  return (
    <Page title="Earning rules" actions={<Allowed to="edit_program"><Button variant="primary" onClick={() => void navigate({ to: '/t/$tenantId/earning-rules/new', params: { tenantId } })}>New rule</Button></Allowed>}>
      <p className="hint">Your backend reports what happened (<code>POST /gateway/events</code>); the active rules of the event&apos;s type decide the XP, highest priority first.</p>
      <TimeZoneNote />
      <div className="filters">
        <Field label="Status">
          <select value={status} onChange={(event) => { setStatus(statusFilters.find((value) => value === event.target.value) ?? ''); setPage(1); }}>
            <option value="">Any</option>
            {statusFilters.map((value) => <option key={value} value={value}>{value}</option>)}
          </select>
        </Field>
        <Field label="Event type" error={eventType.trim() !== '' && !typeFilter ? 'Not an event type (e.g. order.paid).' : undefined}>
          <input value={eventType} placeholder="order.paid" onChange={(event) => { setEventType(event.target.value); setPage(1); }} />
        </Field>
      </div>
      <QueryView query={query} what="Loading earning rules">
        {(result) => (
          <>
            <DataTable caption="Earning rules" columns={columns} data={result.items} empty="No earning rules yet." />
            <Pager page={result.page} totalPages={result.total_pages} totalCount={result.total_count} onPage={setPage} />
          </>
        )}
      </QueryView>
      <Allowed to="edit_program"><SimulatePanel /></Allowed>
      {deleting ? (
        <Confirm
          title="Delete earning rule"
          message={<p>Delete {deleting.name}? Past events keep their XP. To stop it and keep its record, archive it instead.</p>}
          confirmLabel="Delete"
          busy={remove.isPending}
          onConfirm={() => remove.mutate(deleting)}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </Page>
  );
}
