import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { assertCan } from '../../domain/permissions';
import type { PortalEnv } from '../../app-env';
import { errorResponses, jsonBody, okResponse } from '../openapi';
import { programSettingsBodySchema, programSettingsSchema } from '../../schemas/program-settings';
import { replaceProgramSettings } from '../../services/program-settings';
import { tenantParams } from './params';
import { portalSecurity } from './security';

const route = createRoute({
  method: 'put',
  path: '/program-settings',
  operationId: 'replaceProgramSettings',
  tags: ['Program settings'],
  summary: "Replace the program's settings",
  description:
    'Takes the whole document: a section (`points`, `tiers`) or a field left out is reset to its default. A new time zone moves the periods of rule limits for the events evaluated after it. Tiers moved to `earned_in_period` keep every customer in its current tier until its first review (`tier_valid_until`); back on `lifetime`, lifetime XP places tiers again at once. Admin role and up.',
  security: portalSecurity,
  request: { params: tenantParams, body: jsonBody(programSettingsBodySchema) },
  responses: {
    200: okResponse(programSettingsSchema, 'The settings as saved'),
    ...errorResponses(401, 403, 404, 413, 422),
  },
});

export function registerProgramSettingsPut(app: OpenAPIHono<PortalEnv>) {
  app.openapi(route, async (c) => {
    assertCan(c.get('portalAuth').role, 'manage_program_settings');
    const data = await replaceProgramSettings(c.get('services'), c.req.valid('json'));
    return c.json({ success: true as const, data }, 200);
  });
}
