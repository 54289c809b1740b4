import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ENTRY = fileURLToPath(new URL('../index.ts', import.meta.url));
export const BROWSER_BUNDLE = fileURLToPath(new URL('../../dist/pulseboard-client.js', import.meta.url));

/**
 * The browser build: one ES module, no Node built-in (esbuild refuses one for
 * the browser platform; `node:zlib` is left external: http.ts imports it only
 * when it runs on Node, and a browser never reaches that import), minified. `pnpm client:build` writes it to
 * packages/client/dist/; the browser test loads the same build.
 */
export async function buildBrowserBundle(options: { write?: boolean } = {}): Promise<string> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    sourcemap: false,
    write: options.write === true,
    outfile: BROWSER_BUNDLE,
    external: ['node:zlib'],
    logLevel: 'silent',
  });
  return options.write === true ? BROWSER_BUNDLE : result.outputFiles![0]!.text;
}
