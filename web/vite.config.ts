import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const outDir = fileURLToPath(new URL('../public', import.meta.url));

/**
 * public/ is shared with the API reference (public/api/v1/docs/, copied by scripts/docs-assets.ts),
 * so the build may not empty it: only the CMS's own index.html and assets/ are removed first.
 */
function cleanOwnOutput(): Plugin {
  return {
    name: 'clean-cms-output',
    apply: 'build',
    async buildStart() {
      await rm(`${outDir}/assets`, { recursive: true, force: true });
      await rm(`${outDir}/index.html`, { force: true });
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react(), cleanOwnOutput()],
  build: {
    outDir,
    emptyOutDir: false,
    assetsDir: 'assets',
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: their own files stay cached across CMS deploys.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'tanstack', test: /node_modules[\\/]@tanstack[\\/]/ },
            { name: 'oidc', test: /node_modules[\\/]oidc-client-ts[\\/]/ },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8787' } },
});
