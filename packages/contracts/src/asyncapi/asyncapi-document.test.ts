import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Parser } from '@asyncapi/parser';
import { describe, expect, it } from 'vitest';
import { topicDefinitions } from '../topics.ts';
import { generateAsyncApiDocument, serialiseAsyncApi } from './document.ts';

const COMMITTED = fileURLToPath(new URL('../../../../docs/asyncapi.json', import.meta.url));

describe('the AsyncAPI document', () => {
  it('docs/asyncapi.json is what the topic definitions generate (else: run `pnpm asyncapi:write` and commit it)', () => {
    if (readFileSync(COMMITTED, 'utf8') !== serialiseAsyncApi(generateAsyncApiDocument()))
      expect.fail('docs/asyncapi.json differs from the generated document: run `pnpm asyncapi:write` and commit docs/asyncapi.json');
  });

  it('is valid AsyncAPI 3 (@asyncapi/parser: no error, no warning) and has a channel per topic plus the WebSocket', { timeout: 120_000 }, async () => {
    const { document, diagnostics } = await new Parser().parse(readFileSync(COMMITTED, 'utf8'));
    // Severity 0 is an error, 1 a warning (2 and 3 are hints). Number(): the parser's enum and
    // spectral's are two copies of @stoplight/types, so neither enum type matches the other.
    expect(diagnostics.filter((d) => Number(d.severity) <= 1).map((d) => `${d.code}: ${d.message} at ${d.path.join('.')}`)).toEqual([]);
    expect(document).toBeDefined();
    const channels = document!
      .channels()
      .all()
      .map((c) => c.address());
    expect(channels.sort()).toEqual([...topicDefinitions().map((t) => t.name), '/ws'].sort());
  });
});
