import { statSync } from 'node:fs';
import { buildBrowserBundle } from './browser-build.ts';

/** `pnpm client:build`: packages/client/dist/pulseboard-client.js. */
const file = await buildBrowserBundle({ write: true });
console.log(`wrote ${file} (${statSync(file).size} bytes)`);
