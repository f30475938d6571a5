import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { analyticsQuery, topCountriesSchema } from '../../schemas/analytics';
import { topCountries } from '../../services/analytics';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/analytics/top-countries',
  operationId: 'getTopCountries',
  tags: ['Analytics'],
  summary: 'Top countries by active fans',
  description: 'Active fans (customers active or reinstated) per country, highest first, ties by country code. `limit` (default 10, max 100); optional inclusive `from`/`to` on the customer creation time. The total counts every active fan, with or without a country; shares are of that total, rounded to 2 decimals.',
  security: portalSecurity,
  request: { params: tenantParams, query: analyticsQuery },
  responses: {
    200: okResponse(topCountriesSchema, 'Top countries by active fans'),
    ...errorResponses(401, 404, 422),
  },
});

export function registerAnalyticsTopCountries(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await topCountries(c.get('services'), c.req.valid('query'));
    return c.json({ success: true as const, data }, 200);
  });
}
