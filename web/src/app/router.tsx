/** The route tree (code-based): every screen of the CMS and its URL. web/README.md lists them. */
import { createBrowserHistory, createRoute, createRouter, type RouterHistory } from '@tanstack/react-router';
import { Loading } from '../components/ui';
import { Home, NewTenant } from '../screens/Tenants';
import { AuthCallback } from './AuthGate';
import { rootRoute, tenantRoute } from './roots';
import { tenantRoutes } from './tenant-routes';

const callbackRoute = createRoute({ getParentRoute: () => rootRoute, path: '/auth/callback', component: AuthCallback });
const indexRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: Home });
const newTenantRoute = createRoute({ getParentRoute: () => rootRoute, path: '/tenants/new', component: NewTenant });

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
