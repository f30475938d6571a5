import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalEnv } from '../../app-env';
import { errorResponses, okResponse } from '../openapi';
import { programSettingsSchema } from '../../schemas/program-settings';
import { getProgramSettings } from '../../services/program-settings';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'get',
  path: '/program-settings',
  operationId: 'getProgramSettings',
  tags: ['Program settings'],
  summary: "Get the program's settings (time zone, point lifecycle, tier basis)",
  description: 'Every field, the defaults where nothing was saved (`updated_at` null then). Every member role: editors write rule limits in this time zone.',
  security: portalSecurity,
  request: { params: tenantParams },
  responses: {
    200: okResponse(programSettingsSchema, 'The settings'),
    ...errorResponses(401, 404),
  },
});

export function registerProgramSettingsGet(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    const data = await getProgramSettings(c.get('services'));
    return c.json({ success: true as const, data }, 200);
  });
}
