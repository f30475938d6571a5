import { Link, Outlet, useParams, type LinkProps } from '@tanstack/react-router';
import { ErrorNote } from '../components/ui';
import { can, type Permission } from '../lib/permissions';
import { TenantProvider, useMe } from '../context/providers';

const sections: { to: NonNullable<LinkProps['to']>; label: string; needs?: Permission }[] = [
  { to: '/t/$tenantId', label: 'Dashboard' },
  { to: '/t/$tenantId/customers', label: 'Customers' },
  { to: '/t/$tenantId/tiers', label: 'Tiers' },
  { to: '/t/$tenantId/rewards', label: 'Rewards' },
  { to: '/t/$tenantId/earning-rules', label: 'Earning rules' },
  { to: '/t/$tenantId/redemptions', label: 'Redemptions' },
  { to: '/t/$tenantId/attributes', label: 'Attributes' },
  { to: '/t/$tenantId/cohorts', label: 'Cohorts' },
  { to: '/t/$tenantId/onchain-assets', label: 'Onchain assets' },
  { to: '/t/$tenantId/api-keys', label: 'API keys' },
  { to: '/t/$tenantId/members', label: 'Members' },
  // Endpoints and delivery logs send tenant data out: the API shows them to admins only.
  { to: '/t/$tenantId/webhooks', label: 'Webhooks', needs: 'manage_webhooks' },
  // The files hold the people imported: admins only, as the API.
  { to: '/t/$tenantId/imports', label: 'Imports', needs: 'run_imports_exports' },
  // Files of the whole tenant's data: admins only, as the API.
  { to: '/t/$tenantId/exports', label: 'Exports', needs: 'run_imports_exports' },
  { to: '/t/$tenantId/program-settings', label: 'Program settings' },
  { to: '/t/$tenantId/audit-log', label: 'Audit log', needs: 'read_audit_log' },
];

/** /t/$tenantId: the caller's membership decides the role every screen below respects. */
export function TenantLayout() {
  const { tenantId } = useParams({ from: '/t/$tenantId' });
  const me = useMe();
  const membership = me.data?.memberships.find((entry) => entry.tenant.id === tenantId);
  if (!membership) return <main id="main" className="main"><ErrorNote message="You are not a member of this tenant (or it does not exist). Pick another in the tenant switcher." /></main>;
  return (
    <TenantProvider membership={membership}>
      <div className="layout">
        <nav className="sidenav" aria-label="Sections">
          <ul>
            {sections
              .filter((section) => !section.needs || can(membership.role, section.needs))
              .map((section) => (
                <li key={section.label}>
                  <Link to={section.to} params={{ tenantId }} activeOptions={{ exact: section.to === '/t/$tenantId' }} activeProps={{ 'aria-current': 'page', className: 'active' }}>
                    {section.label}
                  </Link>
                </li>
              ))}
          </ul>
        </nav>
        <main id="main" className="main">
          <Outlet />
        </main>
      </div>
    </TenantProvider>
  );
}
