import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import { DOCS_FILES, DOCS_URL } from './files';

/**
 * Swagger UI's start-up. `validatorUrl: null`: by default it shows a badge image fetched from
 * Swagger's online validator, the one host the bundle calls by itself. `displayOperationId`: the
 * ids are the SDK's method names.
 */
function startScript(documentUrl: string): string {
  const options = { url: documentUrl, dom_id: '#swagger-ui', validatorUrl: null, deepLinking: true, displayOperationId: true, filter: true };
  return `window.ui = SwaggerUIBundle(${JSON.stringify(options)});`;
}

function pageHtml(script: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Loyalty Platform API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${DOCS_URL}/${DOCS_FILES.stylesheet}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${DOCS_URL}/${DOCS_FILES.script}"></script>
<script>${script}</script>
</body>
</html>
`;
}

/**
 * Only this origin may serve what the page loads, so the browser itself holds the reference to
 * "renders offline"; the inline start-up is allowed by its hash. Inline styles: Swagger UI sets
 * style attributes; data: images: its stylesheet's icons.
 */
async function contentSecurityPolicy(script: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(script));
  const hash = btoa(String.fromCharCode(...new Uint8Array(digest)));
  return [
    "default-src 'self'",
    `script-src 'self' 'sha256-${hash}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** GET /docs: the API reference page (no token, any configuration: src/middleware/config.ts). */
export function registerDocsPage(app: OpenAPIHono<AppEnv>, documentUrl: string) {
  const script = startScript(documentUrl);
  const html = pageHtml(script);
  let policy: Promise<string> | undefined;
  app.get('/docs', async (c) => {
    policy ??= contentSecurityPolicy(script);
    c.header('Content-Security-Policy', await policy);
    return c.html(html);
  });
}
