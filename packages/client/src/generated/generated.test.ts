import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateAll } from './generate.ts';

describe("the client's generated API types", () => {
  it('packages/client/src/generated/*.ts are what docs/openapi.json and docs/asyncapi.json generate (else: run `pnpm client:types` and commit them)', async () => {
    for (const { file, text } of await generateAll()) {
      const committed = readFileSync(file, 'utf8');
      if (committed !== text) expect.fail(`${file} differs from the API documents: run \`pnpm client:types\` and commit it`);
    }
  });
});
