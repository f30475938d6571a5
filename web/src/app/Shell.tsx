import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { failureMessage, failureRequestId } from '../api/errors';
import { Button, ErrorNote, Loading } from '../components/ui';
import { useApi, useAuth, useMe, useSession } from '../context/providers';

/** `/t/<tenant>/<section>/...` -> [tenant, section]. */
function tenantPath(pathname: string): [string | undefined, string | undefined] {
  const match = /^\/t\/([^/]+)(?:\/([^/]+))?/.exec(pathname);
  return [match?.[1], match?.[2]];
}

function TenantSwitcher() {
  const me = useMe();
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const [tenantId, section] = tenantPath(pathname);
  const memberships = me.data?.memberships ?? [];
  if (memberships.length === 0) return null;
  return (
    <div className="switcher">
      <label htmlFor="tenant-switcher">Tenant</label>
      <select
        id="tenant-switcher"
        value={tenantId ?? ''}
        onChange={(event) => {
          // The same section of the other tenant (its list, not a record id of this one).
          const to = section ? `/t/${event.target.value}/${section}` : `/t/${event.target.value}`;
          void navigate({ to });
        }}
      >
        {tenantId ? null : <option value="">Choose…</option>}
        {memberships.map((membership) => (
          <option key={membership.tenant.id} value={membership.tenant.id}>
            {membership.tenant.name} ({membership.role.replace('_', ' ')})
          </option>
        ))}
      </select>
      <Link to="/tenants/new" className="btn btn-link">New tenant</Link>
    </div>
  );
}

function Footer() {
  const api = useApi();
  const info = useQuery({ queryKey: ['info'], queryFn: () => api.call(api.portal.getInfo()), staleTime: Infinity });
  return (
    <footer className="footer">
      {info.data ? `${info.data.name} ${info.data.version} · ${info.data.environment}` : null} · <a href="/api/v1/docs">API reference</a>
    </footer>
  );
}

export function Shell() {
  const auth = useAuth();
  const session = useSession();
  const me = useMe();
  return (
    <div className="shell">
      <a href="#main" className="skip-link">Skip to content</a>
      <header className="topbar">
        <Link to="/" className="brand">Loyalty CMS</Link>
        <TenantSwitcher />
        <div className="account">
          <span className="email">{auth.status === 'signed-in' ? auth.email : ''}</span>
          <Button variant="link" onClick={() => void session.signOut()}>Sign out</Button>
        </div>
      </header>
      {me.isPending ? <Loading what="Loading your account" /> : me.isError ? <ErrorNote message={failureMessage(me.error)} requestId={failureRequestId(me.error)} onRetry={() => void me.refetch()} /> : <Outlet />}
      <Footer />
    </div>
  );
}
