import { limitBody, limitJsonNesting } from './middleware/body-limit';
import { requireConfig } from './middleware/config';
import { onError, onNotFound } from './middleware/errors';
import { identifyRequest, initRequest } from './middleware/init';
import { rejectUnsupportedMethods } from './middleware/methods';
import { authenticateAccount } from './middleware/portal-auth';
import { limitPerAccount } from './middleware/rate-limit';
import { registerCms } from './routes/cms';
import { registerDocs } from './routes/docs';
import { DOCS_URL } from './routes/docs/files';
import { gatewayApp } from './routes/gateway';
import { registerPlatform } from './routes/platform';
import { registerWebhookEvents } from './routes/webhooks/events';
import { createRouter } from './routes/openapi';
import { withBookmarks, withImpliedStatuses, withRequestIdHeader } from './routes/openapi-document';
import { portalApp } from './routes/portal';
import { IMPORT_UPLOAD_PATH } from './routes/portal/imports.create';
import { SERVICE_VERSION } from './routes/platform/info';

export const API_PREFIX = '/api/v1';

/** The root app only mounts surfaces; each surface applies its own authentication. */
export function createApp() {
  return buildApp().app;
}

/**
 * The document `GET /api/v1/openapi.json` serves, built without bindings or a server:
 * `npm run sdk:generate` writes it to sdk/openapi.json.
 */
export function openApiDocument() {
  return buildApp().document();
}

function buildApp() {
  const app = createRouter();
  // First of all: every answer, the CMS's and any error's included, carries the request id.
  app.use('*', identifyRequest);
  const api = createRouter();
  // What answers whatever the configuration: /info, which operators probe while fixing one, and the
  // API reference (its page, its files, the document), which reads no variable and which they and
  // partners read meanwhile (docs/decisions/0064-api-reference-offline.md).
  const checkConfig = requireConfig({ exempt: [`${API_PREFIX}/info`, `${API_PREFIX}/openapi.json`, DOCS_URL, `${DOCS_URL}/*`] });
  api.use('*', initRequest, rejectUnsupportedMethods(() => app.routes), checkConfig, limitBody({ uploads: [IMPORT_UPLOAD_PATH] }), limitJsonNesting);

  // Rate limited per account like the portal (src/middleware/rate-limit.ts), one budget for both.
  // `/tenants/*` also matches `/tenants` itself: a second pattern would authenticate and count twice.
  const limitAccount = limitPerAccount();
  api.use('/user/*', authenticateAccount, limitAccount);
  api.use('/tenants/*', authenticateAccount, limitAccount);
  registerPlatform(api);
  api.route('/tenant/:tenantId', portalApp((request, env, ctx) => app.fetch(request, env, ctx)));
  api.route('/gateway', gatewayApp());

  registerWebhookEvents(api);
  api.openAPIRegistry.registerComponent('securitySchemes', 'portalBearer', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Access token from the identity provider (RS256/ES256).',
  });
  for (const [name, header, description] of [
    ['gatewayKey', 'x-tenant-key', 'The key_id of a tenant API key.'],
    ['gatewayTimestamp', 'x-tenant-timestamp', 'Current Unix time in seconds.'],
    ['gatewaySignature', 'x-tenant-signature', 'Lowercase hex HMAC-SHA256 of timestamp + METHOD + url + body.'],
  ] as const) {
    api.openAPIRegistry.registerComponent('securitySchemes', name, { type: 'apiKey', in: 'header', name: header, description });
  }
  const documentConfig = {
    openapi: '3.1.0',
    info: { title: 'Loyalty Platform API', version: SERVICE_VERSION, description: 'Gateway (HMAC-signed, for tenant backends) and portal (bearer JWT, for the CMS) surfaces.' },
    servers: [{ url: API_PREFIX }],
  };
  const document = () => withRequestIdHeader(withBookmarks(withImpliedStatuses(api.getOpenAPI31Document(documentConfig))));
  api.get('/openapi.json', (c) => c.json(document()));
  registerDocs(api, `${API_PREFIX}/openapi.json`);

  app.route(API_PREFIX, api);
  // After the API: its routes answer first; an unknown API path passes through the CMS to the 404.
  registerCms(app);
  app.onError(onError);
  app.notFound(onNotFound);
  return { app, document };
}
