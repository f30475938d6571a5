import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { ApiFailure, failureMessage, failureRequestId } from '../../api/errors';
import type { Customer, Schemas } from '../../api/types';
import { Allowed, useApi, useTenant } from '../../context/providers';
import { PAGE_SIZE } from '../../lib/search';
import { columnHelper, DataTable, Pager } from '../../components/DataTable';
import { Confirm } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Badge, Button, Card, Page, RequestId } from '../../components/ui';
import { xp } from '../../lib/format';
import { useAction, type FieldErrors } from '../../lib/forms';
import { keys } from '../../lib/keys';
import { useBuilderContext } from './Cohorts';
import { RuleBuilder } from './RuleBuilder';
import { cohortRules, ruleProblems, storedInput, toDraft, toInput, type DraftRules, type RulesInput } from './rules';

type Cohort = Schemas['Cohort'];
/** How long the rules rest unchanged before they are saved (and counted). */
export const LIVE_COUNT_DELAY_MS = 600;
const RECOMPUTING_HEADER = 'X-Cohorts-Recomputing';
const column = columnHelper<Customer>();

/** The API answers which cohorts are still being re-evaluated in the background: their count may move. */
function recomputing(response: Response, cohortId: string): boolean {
  return (response.headers.get(RECOMPUTING_HEADER) ?? '').split(',').map((id) => id.trim()).includes(cohortId);
}

function Members({ cohortId }: { cohortId: string }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: [...keys.cohorts(tenantId), 'members', cohortId, page],
    queryFn: () => api.call(api.portal.listCohortMembers({ params: { path: { tenantId, cohortId }, query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const columns = column.columns([
    column.accessor('external_id', { header: 'External id', cell: (info) => <Link to="/t/$tenantId/customers/$customerId" params={{ tenantId, customerId: info.row.original.id }} search={{ page: 1 }}>{info.getValue()}</Link> }),
    column.accessor('email', { header: 'Email', cell: (info) => info.getValue() ?? '—' }),
    column.accessor('status', { header: 'Status', cell: (info) => <Badge value={info.getValue()} /> }),
    column.accessor('lifetime_xp', { header: 'Lifetime XP', cell: (info) => xp(info.getValue()) }),
  ]);
  return (
    <Card title="Members">
      <QueryView query={query} what="Loading members">
        {(result) => (
          <>
            <DataTable caption="Cohort members" columns={columns} data={result.items} empty="No customer matches these rules." />
            <Pager page={result.page} totalPages={result.total_pages} totalCount={result.total_count} onPage={setPage} />
          </>
        )}
      </QueryView>
    </Card>
  );
}

/**
 * The rules with a live member count. The API has no dry-run, and member_count is exact only for
 * stored rules, so the editor saves the rules once they rest for LIVE_COUNT_DELAY_MS and are
 * complete, and shows the count the save answers (docs/decisions/0078-cms-cohort-live-count.md).
 */
function LiveRules({ cohort, busyRecomputing }: { cohort: Cohort; busyRecomputing: boolean }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { tenantId, can } = useTenant();
  const context = useBuilderContext(tenantId, cohort.dead_keys);
  const [draft, setDraft] = useState<DraftRules>({ operator: cohort.rules.operator === 'or' ? 'or' : 'and', predicates: cohort.rules.predicates.map(toDraft) });
  const [count, setCount] = useState({ members: cohort.member_count, recomputing: busyRecomputing });
  const [apiErrors, setApiErrors] = useState<FieldErrors>({});
  const input: RulesInput = { operator: draft.operator, version: 1, predicates: draft.predicates.map((predicate) => toInput(predicate, context.definitions)) };
  const json = JSON.stringify(input);
  const [saved, setSaved] = useState(() => JSON.stringify({ operator: cohort.rules.operator, version: 1, predicates: cohort.rules.predicates.map(storedInput) }));
  const problems = ruleProblems(draft, context.definitions, cohortRules);
  const valid = Object.keys(problems).length === 0;
  const save = useMutation({
    mutationFn: async (rules: RulesInput) => {
      const result = await api.portal.updateCohort({ params: { path: { tenantId, cohortId: cohort.id } }, body: { rules } });
      return { cohort: await api.call(Promise.resolve(result)), recomputing: recomputing(result.response, cohort.id), sent: JSON.stringify(rules) };
    },
    onSuccess: async (answer) => {
      setSaved(answer.sent);
      setApiErrors({});
      setCount({ members: answer.cohort.member_count, recomputing: answer.recomputing });
      await queryClient.invalidateQueries({ queryKey: keys.cohorts(tenantId) });
    },
    onError: (error) => setApiErrors(error instanceof ApiFailure ? error.fieldErrors : {}),
  });
  const editable = can('edit_program');
  useEffect(() => {
    // Attribute predicates wait for the definitions: their value form depends on the attribute's type.
    const loading = context.definitions.size === 0 && draft.predicates.some((predicate) => predicate.type === 'attribute');
    if (!editable || !valid || json === saved || loading) return undefined;
    const timer = setTimeout(() => save.mutate(JSON.parse(json) as RulesInput), LIVE_COUNT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [json, saved, valid, editable]);
  const status = save.isPending ? 'Saving and counting…' : !valid ? 'Complete the conditions to count.' : json !== saved ? 'Changes pending…' : count.recomputing || busyRecomputing ? 'Recomputing in the background: the count may still move.' : 'Exact for the current data.';
  return (
    <Card title="Rules">
      <div className="live-count" aria-live="polite">
        <strong>{count.members.toLocaleString('en-US')} {count.members === 1 ? 'member' : 'members'}</strong> <span className="hint">{status}</span>
      </div>
      {save.isError ? <p className="error" role="alert">{failureMessage(save.error)} <RequestId id={failureRequestId(save.error)} /></p> : null}
      {cohort.dead_keys.length ? <p className="note note-warn">Dead keys (no longer defined; they match no one): {cohort.dead_keys.join(', ')}</p> : null}
      <RuleBuilder rules={draft} onChange={setDraft} language={cohortRules} context={context} errors={{ ...problems, ...apiErrors }} disabled={!editable} />
      {editable ? <p className="hint">Changes are saved as you edit, and the count is the API's exact member count of the saved rules.</p> : null}
    </Card>
  );
}

export function CohortPage() {
  const api = useApi();
  const navigate = useNavigate();
  const { tenantId } = useTenant();
  const { cohortId } = useParams({ from: '/t/$tenantId/cohorts/$cohortId' });
  const [deleting, setDeleting] = useState(false);
  const query = useQuery({
    queryKey: [...keys.cohorts(tenantId), 'one', cohortId],
    queryFn: async () => {
      const result = await api.portal.getCohort({ params: { path: { tenantId, cohortId } } });
      return { cohort: await api.call(Promise.resolve(result)), recomputing: recomputing(result.response, cohortId) };
    },
    refetchInterval: (current) => (current.state.data?.recomputing ? 2000 : false),
  });
  const remove = useAction(() => api.call(api.portal.deleteCohort({ params: { path: { tenantId, cohortId } } })), {
    invalidate: [keys.cohorts(tenantId)], success: 'Cohort deleted.', onSuccess: () => void navigate({ to: '/t/$tenantId/cohorts', params: { tenantId } }),
  });
  return (
    <QueryView query={query} what="Loading the cohort">
      {({ cohort, recomputing: busy }) => (
        <Page title={cohort.name} actions={<Allowed to="edit_program"><Button variant="danger" onClick={() => setDeleting(true)}>Delete</Button></Allowed>}>
          {cohort.description ? <p>{cohort.description}</p> : null}
          <LiveRules key={cohort.id} cohort={cohort} busyRecomputing={busy} />
          <Members cohortId={cohort.id} />
          {deleting ? <Confirm title="Delete cohort" message={<p>Delete {cohort.name}?</p>} confirmLabel="Delete" busy={remove.isPending} onConfirm={() => remove.mutate(undefined)} onClose={() => setDeleting(false)} /> : null}
        </Page>
      )}
    </QueryView>
  );
}
