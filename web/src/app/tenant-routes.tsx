import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { customerSearchOf, pageOf } from '../lib/search';
import { CustomerPage } from '../screens/customers/CustomerPage';
import { CustomersList } from '../screens/customers/CustomersList';

import { ApiKeys } from '../screens/admin/ApiKeys';
import { AuditLog } from '../screens/admin/AuditLog';
import { Imports } from '../screens/admin/Imports';
import { Exports } from '../screens/admin/Exports';
import { Members } from '../screens/admin/Members';
import { WebhookPage, Webhooks } from '../screens/admin/Webhooks';
import { EarningRules } from '../screens/earning/EarningRules';
import { EarningRulePage, NewEarningRule } from '../screens/earning/RuleEditor';
import { ProgramSettings } from '../screens/program/ProgramSettings';
import { RedemptionPage, Redemptions } from '../screens/program/Redemptions';
import { Rewards } from '../screens/program/Rewards';
import { Tiers } from '../screens/program/Tiers';
import { AssetPage, Assets } from '../screens/chain/Assets';
import { Attributes } from '../screens/segments/Attributes';
import { CohortPage } from '../screens/segments/CohortPage';
import { Cohorts } from '../screens/segments/Cohorts';
import type { tenantRoute } from './roots';

/** Every screen under /t/$tenantId. */
export function tenantRoutes(parent: typeof tenantRoute) {
  const paged = (search: Record<string, unknown>) => ({ page: pageOf(search) });
  return [
    createRoute({ getParentRoute: () => parent, path: '/', component: lazyRouteComponent(() => import('../screens/Dashboard'), 'Dashboard') }),
    createRoute({
      getParentRoute: () => parent,
      path: 'customers',
      validateSearch: customerSearchOf,
      component: CustomersList,
    }),
    createRoute({ getParentRoute: () => parent, path: 'customers/$customerId', validateSearch: paged, component: CustomerPage }),
    createRoute({ getParentRoute: () => parent, path: 'tiers', component: Tiers }),
    createRoute({ getParentRoute: () => parent, path: 'rewards', component: Rewards }),
    createRoute({ getParentRoute: () => parent, path: 'earning-rules', component: EarningRules }),
    createRoute({ getParentRoute: () => parent, path: 'earning-rules/new', component: NewEarningRule }),
    createRoute({ getParentRoute: () => parent, path: 'earning-rules/$ruleId', component: EarningRulePage }),
    createRoute({ getParentRoute: () => parent, path: 'program-settings', component: ProgramSettings }),
    createRoute({ getParentRoute: () => parent, path: 'redemptions', component: Redemptions }),
    createRoute({ getParentRoute: () => parent, path: 'redemptions/$redemptionId', component: RedemptionPage }),
    createRoute({ getParentRoute: () => parent, path: 'attributes', component: Attributes }),
    createRoute({ getParentRoute: () => parent, path: 'cohorts', component: Cohorts }),
    createRoute({ getParentRoute: () => parent, path: 'cohorts/$cohortId', component: CohortPage }),
    createRoute({ getParentRoute: () => parent, path: 'onchain-assets', component: Assets }),
    createRoute({ getParentRoute: () => parent, path: 'onchain-assets/$assetId', component: AssetPage }),
    createRoute({ getParentRoute: () => parent, path: 'api-keys', component: ApiKeys }),
    createRoute({ getParentRoute: () => parent, path: 'members', component: Members }),
    createRoute({ getParentRoute: () => parent, path: 'webhooks', component: Webhooks }),
    createRoute({ getParentRoute: () => parent, path: 'webhooks/$endpointId', component: WebhookPage }),
    createRoute({ getParentRoute: () => parent, path: 'audit-log', component: AuditLog }),
    createRoute({ getParentRoute: () => parent, path: 'imports', component: Imports }),
    createRoute({ getParentRoute: () => parent, path: 'exports', component: Exports }),
  ] as const;
}
