/**
 * The API reference's files: Swagger UI from the `swagger-ui-dist` package, copied at dev, test and
 * deploy time by scripts/lib/docs-assets.ts into the Worker's static assets (wrangler.toml
 * [assets]) at the path they are served from. Plain constants: the copy script imports this too.
 */
export const DOCS_URL = '/api/v1/docs';

/** The package the files come from, and the files the page loads (nothing else of it is served). */
export const DOCS_PACKAGE = 'swagger-ui-dist';
export const DOCS_FILES = { script: 'swagger-ui-bundle.js', stylesheet: 'swagger-ui.css' } as const;

export const docsFileNames: readonly string[] = Object.values(DOCS_FILES);
