import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderConfigurationDoc, undescribed } from './configuration-doc.ts';
import { COMMITTED_CONFIGURATION, configurationDoc, SERVICE_SCHEMAS } from './write.ts';

describe('docs/configuration.md', () => {
  it('is what the env schemas generate (else: run `pnpm config:write` and commit it)', () => {
    const committed = readFileSync(COMMITTED_CONFIGURATION, 'utf8');
    if (committed !== configurationDoc()) expect.fail('docs/configuration.md differs from the services\' env schemas: run `pnpm config:write` and commit docs/configuration.md');
  });

  it('describes every variable every service reads', () => {
    expect(undescribed(SERVICE_SCHEMAS), 'variables without a `description` in their env schema').toEqual([]);
    const doc = configurationDoc();
    for (const { properties } of SERVICE_SCHEMAS) for (const name of Object.keys(properties)) expect(doc).toContain(`| \`${name}\` |`);
  });

  it('never prints a secret\'s default, and marks a variable without a default as required', () => {
    const doc = renderConfigurationDoc([
      { service: 'a', properties: { TOKEN: { type: 'string', strongSecret: true, description: 'x' }, OLD_TOKEN: { type: 'string', strongSecret: 'or-empty', default: 'hunter2-hunter2', description: 'y' } } },
    ]);
    expect(doc).not.toContain('hunter2');
    expect(doc).toMatch(/\| `TOKEN` \| secret, 32\+ random bytes \| \*\*required\*\* \|/);
  });

  it('keeps a variable that services declare differently as one row per schema, under the services that read each', () => {
    const doc = renderConfigurationDoc([
      { service: 'a', properties: { PORT: { type: 'integer', default: 1, description: 'p' }, SHARED: { type: 'boolean', default: true, description: 's' } } },
      { service: 'b', properties: { PORT: { type: 'integer', default: 2, description: 'p' }, SHARED: { type: 'boolean', default: true, description: 's' } } },
    ]);
    expect(doc.match(/\| `SHARED` \|/g)).toHaveLength(1);
    expect(doc.match(/\| `PORT` \|/g)).toHaveLength(2);
    expect(doc.indexOf('## Every service')).toBeLessThan(doc.indexOf('## a'));
    expect(doc.slice(doc.indexOf('## b'))).toContain('| `PORT` | integer | `2` |');
  });

  it('renders a variable with no description instead of failing (another change may add one)', () => {
    expect(renderConfigurationDoc([{ service: 'a', properties: { NEW: { type: 'string', default: 'x' } } }])).toContain('| `NEW` | string | `x` | (no description in the schema) |');
  });
});
