/** Vite's `import.meta.glob` in the one form this folder uses (files' text, inlined at build time), as vite/client declares it. */
interface ImportMeta {
  glob(pattern: string, options: { query: '?raw'; import: 'default'; eager: true }): Record<string, string>;
}
