/** The route tree (code-based): every screen of the CMS and its URL. web/README.md lists them. */
import { createBrowserHistory, createRootRoute, createRoute, createRouter, Outlet, useRouterState, type RouterHistory } from '@tanstack/react-router';
import { ErrorNote, Loading } from '../components/ui';
import { AuthCallback, AuthGate } from './AuthGate';
import { Shell } from './Shell';
import { TenantLayout } from './TenantLayout';
import { Home, NewTenant } from '../screens/Tenants';
import { tenantRoutes } from './tenant-routes';

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

const callbackRoute = createRoute({ getParentRoute: () => rootRoute, path: '/auth/callback', component: AuthCallback });
const indexRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: Home });
const newTenantRoute = createRoute({ getParentRoute: () => rootRoute, path: '/tenants/new', component: NewTenant });
export const tenantRoute = createRoute({ getParentRoute: () => rootRoute, path: '/t/$tenantId', component: TenantLayout });

const routeTree = rootRoute.addChildren([callbackRoute, indexRoute, newTenantRoute, tenantRoute.addChildren(tenantRoutes(tenantRoute))]);

/** What a route shows while its code or match is still loading: without it Suspense shows nothing. */
function PagePending() {
  return <div className="pending"><Loading what="Loading this page" /></div>;
}

export function createAppRouter(history: RouterHistory = createBrowserHistory()) {
  // A default pending component also gives every route its own Suspense boundary, so a lazy
  // screen suspends only itself, not the tenant layout (nav) around it.
  return createRouter({ routeTree, history, defaultPreload: false, scrollRestoration: true, defaultPendingComponent: PagePending });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
