import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Role, Schemas } from '../../api/types';
import { Allowed, useApi, useMe, useTenant } from '../../context/providers';
import { PAGE_SIZE } from '../../lib/search';
import { columnHelper, DataTable, Pager } from '../../components/DataTable';
import { Confirm, Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Badge, Button, ErrorNote, Field, Page } from '../../components/ui';
import { dateTime } from '../../lib/format';
import { useAction, useFormMutation } from '../../lib/forms';
import { keys } from '../../lib/keys';
import { collect, emailAddress, limits, required } from '../../lib/rules';

type Member = Schemas['Member'];
const column = columnHelper<Member>();
const allRoles: Role[] = ['super_admin', 'admin', 'editor', 'viewer'];

/** The path id of a member: the person's user id, or the membership id of an invitation not yet accepted. */
const memberKey = (member: Member): string => member.user_id ?? member.id;

function Invite({ roles, onClose }: { roles: Role[]; onClose: () => void }) {
  const api = useApi();
  const { tenantId } = useTenant();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const form = useFormMutation((body: { email: string; role: Role }) => api.call(api.portal.inviteMember({ params: { path: { tenantId } }, body })), {
    validate: (body) => collect([required('email', body.email), emailAddress('email', body.email)]),
    invalidate: [keys.members(tenantId)],
    success: (member) => `${member.email} invited: linked when they first sign in with that email.`,
    onSuccess: onClose,
  });
  return (
    <Dialog title="Invite a member" onClose={onClose}>
      <form className="form" noValidate onSubmit={(event) => { event.preventDefault(); form.submit({ email: email.trim(), role }); }}>
        {form.formError ? <ErrorNote message={form.formError} requestId={form.formRequestId} /> : null}
        <Field label="Email" error={form.fieldErrors.email}><input type="email" value={email} maxLength={limits.email} onChange={(event) => setEmail(event.target.value)} /></Field>
        <Field label="Role" error={form.fieldErrors.role}>
          <select value={role} onChange={(event) => setRole(allRoles.find((value) => value === event.target.value) ?? 'viewer')}>
            {roles.map((value) => <option key={value} value={value}>{value.replace('_', ' ')}</option>)}
          </select>
        </Field>
        <div className="dialog-footer"><Button onClick={onClose}>Cancel</Button><Button type="submit" variant="primary" busy={form.busy}>Invite</Button></div>
      </form>
    </Dialog>
  );
}

export function Members() {
  const api = useApi();
  const me = useMe();
  const { tenantId, can } = useTenant();
  const [page, setPage] = useState(1);
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Member | null>(null);
  // Only a super admin grants or removes super admin.
  const roles = can('manage_super_admins') ? allRoles : allRoles.filter((role) => role !== 'super_admin');
  const query = useQuery({
    queryKey: [...keys.members(tenantId), page],
    queryFn: () => api.call(api.portal.listMembers({ params: { path: { tenantId }, query: { page, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
  });
  const changeRole = useAction(({ member, role }: { member: Member; role: Role }) => api.call(api.portal.updateMember({ params: { path: { tenantId, userId: memberKey(member) } }, body: { role } })), {
    invalidate: [keys.members(tenantId), ['me']], success: (member) => `${member.email} is now ${member.role.replace('_', ' ')}.`,
  });
  const remove = useAction((member: Member) => api.send(api.portal.removeMember({ params: { path: { tenantId, userId: memberKey(member) } } })), {
    invalidate: [keys.members(tenantId)], success: 'Member removed.', onSuccess: () => setRemoving(null),
  });
  const manageable = (member: Member) => can('manage_members') && member.user_id !== me.data?.id && (member.role !== 'super_admin' || can('manage_super_admins'));
  const columns = column.columns([
    column.accessor('email', { header: 'Email' }),
    column.accessor('username', { header: 'Name', cell: (info) => info.getValue() ?? '—' }),
    column.accessor('role', {
      header: 'Role',
      cell: (info) =>
        manageable(info.row.original) ? (
          <select aria-label={`Role of ${info.row.original.email}`} value={info.getValue()} disabled={changeRole.isPending} onChange={(event) => {
            const role = allRoles.find((value) => value === event.target.value);
            if (role) changeRole.mutate({ member: info.row.original, role });
          }}>
            {(roles.includes(info.getValue()) ? roles : [info.getValue(), ...roles]).map((value) => <option key={value} value={value}>{value.replace('_', ' ')}</option>)}
          </select>
        ) : (
          info.getValue().replace('_', ' ')
        ),
    }),
    column.accessor('status', { header: 'Status', cell: (info) => <Badge value={info.getValue()} /> }),
    column.accessor('created_at', { header: 'Since', cell: (info) => dateTime(info.getValue()) }),
    column.display({ id: 'actions', header: 'Actions', cell: (info) => (manageable(info.row.original) ? <Button variant="link" onClick={() => setRemoving(info.row.original)}>Remove</Button> : null) }),
  ]);
  return (
    <Page title="Members" actions={<Allowed to="manage_members"><Button variant="primary" onClick={() => setInviting(true)}>Invite member</Button></Allowed>}>
      <p className="hint">
        A tenant always keeps at least one super admin: removing or demoting the last one is refused (the API says so). Only a super admin grants or removes super admin, and nobody removes their own membership here.
      </p>
      <QueryView query={query} what="Loading members">
        {(result) => (
          <>
            <DataTable caption="Members" columns={columns} data={result.items} />
            <Pager page={result.page} totalPages={result.total_pages} totalCount={result.total_count} onPage={setPage} />
          </>
        )}
      </QueryView>
      {inviting ? <Invite roles={roles} onClose={() => setInviting(false)} /> : null}
      {removing ? (
        <Confirm title="Remove member" message={<p>Remove {removing.email} from this tenant? They lose access at once.</p>} confirmLabel="Remove" busy={remove.isPending} onConfirm={() => remove.mutate(removing)} onClose={() => setRemoving(null)} />
      ) : null}
    </Page>
  );
}
