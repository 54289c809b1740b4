import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateOpenApiDocument, serialiseOpenApi } from './document.ts';

const COMMITTED = fileURLToPath(new URL('../../../../docs/openapi.json', import.meta.url));

type Doc = { paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown>; operationId?: string }>> };

describe('the OpenAPI document', () => {
  it('docs/openapi.json is what the routes generate (else: run `pnpm openapi:write` and commit it)', async () => {
    const generated = serialiseOpenApi(await generateOpenApiDocument());
    const committed = readFileSync(COMMITTED, 'utf8');
    // One line, not a 7,000-line diff: the fix is always the same command.
    if (committed !== generated)
      expect.fail('docs/openapi.json differs from the document the routes generate: run `pnpm openapi:write` and commit docs/openapi.json');
  });

  it('every API operation declares its security, a success and a 500, and an operationId', async () => {
    const doc = (await generateOpenApiDocument()) as Doc;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(op.operationId, where).toMatch(/^[a-z]+[A-Za-z0-9]*$/);
        expect(
          Object.keys(op.responses).some((s) => s.startsWith('2')),
          `${where} has a 2xx`,
        ).toBe(true);
        if (path === '/ingest' || path.startsWith('/api/v1/')) {
          expect(op.security, `${where} declares security`).toBeDefined();
          expect(op.responses['500'], `${where} documents 500`).toBeDefined();
        }
      }
    }
  });
});
