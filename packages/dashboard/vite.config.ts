import { defineConfig } from 'vite';

// Workspace packages resolve to their TypeScript sources (the export condition
// every package.json declares), as in the tests: the tile-rule schema is
// contracts' own object, bundled, not a copy.
export default defineConfig({
  root: 'app',
  publicDir: '../public',
  base: '/',
  resolve: { conditions: ['@pulseboard/source', 'module', 'browser', 'development|production'] },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: '../dist', emptyOutDir: true, target: 'es2022', reportCompressedSize: false, assetsInlineLimit: 0 },
});
