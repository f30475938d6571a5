/** The route tree's two roots: the app (auth gate and shell) and a tenant (its layout); the screens hang below. */
import { createRootRoute, createRoute, Outlet, useRouterState } from '@tanstack/react-router';
import { ErrorNote } from '../components/ui';
import { AuthGate } from './AuthGate';
import { Shell } from './Shell';
import { TenantLayout } from './TenantLayout';

function Root() {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  // The callback runs while signed out: it is what signs in.
  if (pathname === '/auth/callback') return <Outlet />;
  return (
    <AuthGate>
      <Shell />
    </AuthGate>
  );
}

export const rootRoute = createRootRoute({
  component: Root,
  notFoundComponent: () => <ErrorNote message="There is no page at this address." />,
  errorComponent: ({ error }) => <ErrorNote message={error instanceof Error && error.message ? error.message : 'This page failed to render.'} />,
});

export const tenantRoute = createRoute({ getParentRoute: () => rootRoute, path: '/t/$tenantId', component: TenantLayout });
