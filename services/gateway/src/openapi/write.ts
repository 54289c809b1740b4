import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateOpenApiDocument, serialiseOpenApi } from './document.ts';

/**
 * `pnpm openapi:write`: writes docs/openapi.json from the routes.
 * `pnpm openapi:write --check`: exits 1 when the committed file differs.
 */
export const COMMITTED_OPENAPI = fileURLToPath(new URL('../../../../docs/openapi.json', import.meta.url));

const text = serialiseOpenApi(await generateOpenApiDocument());
if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(COMMITTED_OPENAPI, 'utf8');
  } catch {
    // missing: differs
  }
  if (committed !== text) {
    console.error('docs/openapi.json differs from the document the routes generate: run `pnpm openapi:write` and commit it');
    process.exit(1);
  }
  console.log('docs/openapi.json is up to date');
} else {
  writeFileSync(COMMITTED_OPENAPI, text);
  console.log(`wrote ${COMMITTED_OPENAPI}`);
}
