import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { Schemas } from '../../api/types';
import { Allowed, useApi, useTenant } from '../../context/providers';
import { useMasterdata } from '../../context/masterdata';
import { PAGE_SIZE } from '../../lib/search';
import { columnHelper, DataTable, Pager } from '../../components/DataTable';
import { Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Button, ErrorNote, Field, Page } from '../../components/ui';
import { dateTime } from '../../lib/format';
import { useFormMutation } from '../../lib/forms';
import { keys } from '../../lib/keys';
import { collect, limits, maxLength, required } from '../../lib/rules';
import { useTierOptions } from '../program/options';
import { RuleBuilder, type BuilderContext } from './RuleBuilder';
import { cohortRules, ruleProblems, toInput, type AttributeType, type DraftRules } from './rules';

type Cohort = Schemas['Cohort'];
const column = columnHelper<Cohort>();

/**
 * Attribute definitions, tiers (and with `withCohorts`, the cohorts an earning rule's `cohort`
 * predicate picks from) the rule builder offers: the first 100 of each, the API's page maximum.
 */
export function useBuilderContext(tenantId: string, deadKeys: string[], withCohorts = false): BuilderContext {
  const api = useApi();
  const definitions = useQuery({
    queryKey: [...keys.attributes(tenantId), 'all'],
    queryFn: () => api.call(api.portal.listAttributes({ params: { path: { tenantId }, query: { limit: 100 } } })),
  });
  const cohorts = useQuery({
    queryKey: [...keys.cohorts(tenantId), 'all'],
    queryFn: () => api.call(api.portal.listCohorts({ params: { path: { tenantId }, query: { limit: 100 } } })),
    enabled: withCohorts,
  });
  const tiers = useTierOptions(tenantId);
  const masterdata = useMasterdata();
  return {
    countries: masterdata.data?.countries ?? [],
    definitions: new Map<string, AttributeType>((definitions.data?.items ?? []).map((definition) => [definition.key, definition.type])),
    tiers: tiers.data?.items ?? [],
    deadKeys,
    cohorts: cohorts.data?.items ?? [],
  };
}

type Draft = { name: string; description: string; rules: DraftRules };

function CreateCohort({ onClose }: { onClose: () => void }) {
  const api = useApi();
  const navigate = useNavigate();
  const { tenantId } = useTenant();
  const context = useBuilderContext(tenantId, []);
  const [draft, setDraft] = useState<Draft>({ name: '', description: '', rules: { operator: 'and', predicates: [{ type: 'status', key: '', op: 'eq', value: 'active' }] } });
  const form = useFormMutation(
    (values: Draft) =>
      api.call(api.portal.createCohort({ params: { path: { tenantId } }, body: { name: values.name.trim(), description: values.description, rules: { operator: values.rules.operator, version: 1, predicates: values.rules.predicates.map((predicate) => toInput(predicate, context.definitions)) } } })),
    {
      validate: (values) => ({ ...collect([required('name', values.name), maxLength('name', values.name, limits.cohortName), maxLength('description', values.description, limits.description)]), ...ruleProblems(values.rules, context.definitions, cohortRules) }),
      invalidate: [keys.cohorts(tenantId)],
      success: (cohort) => `Cohort created: ${cohort.member_count} ${cohort.member_count === 1 ? 'member' : 'members'}.`,
      onSuccess: (cohort) => void navigate({ to: '/t/$tenantId/cohorts/$cohortId', params: { tenantId, cohortId: cohort.id } }),
    },
  );
  return (
    <Dialog title="New cohort" onClose={onClose}>
      <form className="form wide" noValidate onSubmit={(event) => { event.preventDefault(); form.submit(draft); }}>
        {form.formError ? <ErrorNote message={form.formError} requestId={form.formRequestId} /> : null}
        <Field label="Name" error={form.fieldErrors.name}><input value={draft.name} maxLength={limits.cohortName} onChange={(event) => setDraft({ ...draft, name: event.target.value })} /></Field>
        <Field label="Description" error={form.fieldErrors.description}><input value={draft.description} maxLength={limits.description} onChange={(event) => setDraft({ ...draft, description: event.target.value })} /></Field>
        <RuleBuilder rules={draft.rules} onChange={(rules) => setDraft({ ...draft, rules })} language={cohortRules} context={context} errors={form.fieldErrors} />
        <p className="hint">After creating, the cohort page shows the live member count while you refine the rules.</p>
        <div className="dialog-footer"><Button onClick={onClose}>Cancel</Button><Button type="submit" variant="primary" busy={form.busy}>Create cohort</Button></div>
      </form>
    </Dialog>
  );
}

export function Cohorts() {
  const api = useApi();
  const { tenantId } = useTenant();
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const query = useQuery({
    queryKey: [...keys.cohorts(tenantId), 'list', page],
    queryFn: () => api.call(api.portal.listCohorts({ params: { path: { tenantId }, query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const columns = column.columns([
    column.accessor('name', { header: 'Cohort', cell: (info) => <Link to="/t/$tenantId/cohorts/$cohortId" params={{ tenantId, cohortId: info.row.original.id }}>{info.getValue()}</Link> }),
    column.accessor('member_count', { header: 'Members' }),
    column.accessor((row) => row.rules.predicates.length, { id: 'conditions', header: 'Conditions' }),
    column.accessor('dead_keys', { header: 'Dead keys', cell: (info) => (info.getValue().length ? <span className="error">{info.getValue().join(', ')}</span> : '—') }),
    column.accessor('updated_at', { header: 'Updated', cell: (info) => dateTime(info.getValue()) }),
  ]);
  return (
    <Page title="Cohorts" actions={<Allowed to="edit_program"><Button variant="primary" onClick={() => setCreating(true)}>New cohort</Button></Allowed>}>
      <QueryView query={query} what="Loading cohorts">
        {(result) => (
          <>
            <DataTable caption="Cohorts" columns={columns} data={result.items} empty="No cohorts yet." />
            <Pager page={result.page} totalPages={result.total_pages} totalCount={result.total_count} onPage={setPage} />
          </>
        )}
      </QueryView>
      {creating ? <CreateCohort onClose={() => setCreating(false)} /> : null}
    </Page>
  );
}
