import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import { registerDocsAsset } from './asset.get';
import { registerDocsPage } from './page.get';

/** The API reference: its page and the files it loads, all from this Worker (no CDN). */
export function registerDocs(app: OpenAPIHono<AppEnv>, documentUrl: string) {
  registerDocsPage(app, documentUrl);
  registerDocsAsset(app);
}
