import { readFileSync, writeFileSync } from 'node:fs';
import { generateAll } from './generate.ts';

/**
 * `pnpm client:types`: writes packages/client/src/generated/{openapi,broadcast}.ts
 * from docs/openapi.json and docs/asyncapi.json.
 * `pnpm client:types --check`: exits 1 when a committed file differs.
 */
for (const { file, text } of await generateAll()) {
  if (process.argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(file, 'utf8');
    } catch {
      // missing: differs
    }
    if (committed !== text) {
      console.error(`${file} differs from the API documents: run \`pnpm client:types\` and commit it`);
      process.exitCode = 1;
    }
  } else {
    writeFileSync(file, text);
    console.log(`wrote ${file}`);
  }
}
