import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchorsOf, brokenLinks, githubSlug, linkTargets, markdownFiles } from './markdown-links.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('Markdown links', () => {
  it('every relative link in every Markdown file of the repository resolves, anchors included', () => {
    const files = markdownFiles(root);
    expect(files.length).toBeGreaterThan(10);
    const broken = brokenLinks(root, files).map((b) => `${b.file}:${b.line} ${b.target} (${b.why})`);
    expect(broken, 'broken relative links').toEqual([]);
  });

  it('slugs headings as GitHub does', () => {
    expect(githubSlug('Running with Docker')).toBe('running-with-docker');
    expect(githubSlug('Ports and probes')).toBe('ports-and-probes');
    expect(githubSlug('`pnpm bench:pipeline`: the whole stack')).toBe('pnpm-benchpipeline-the-whole-stack');
    expect(githubSlug('What one 2-core machine takes (p50/p99)')).toBe('what-one-2-core-machine-takes-p50p99');
    expect(githubSlug('A [link](x.md) and **bold**')).toBe('a-link-and-bold');
    expect(githubSlug('RULE_ENGINE_GATHER_MS, and 1,000/s')).toBe('rule_engine_gather_ms-and-1000s');
    expect([...anchorsOf('# Same\n## Same\n```\n# not a heading\n```\n<a id="here"></a>')]).toEqual(['same', 'same-1', 'here']);
  });

  it('finds links outside code, and catches a missing file and a missing anchor', () => {
    expect(linkTargets('see [a](a.md#x) and `[b](b.md)`\n```\n[c](c.md)\n```\n[d]: d.md').map((l) => l.target)).toEqual(['a.md#x', 'd.md']);
    const dir = mkdtempSync(join(tmpdir(), 'md-links-'));
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'a.md'), '# Title\n\n## Part two\n');
    writeFileSync(
      join(dir, 'README.md'),
      '[ok](docs/a.md#part-two) [here](#top) [gone](docs/b.md) [web](https://example.com/x.md) [bad](docs/a.md#part-three)\n\n# Top\n',
    );
    const broken = brokenLinks(dir).map((b) => `${b.target}: ${b.why}`);
    expect(broken).toEqual(['docs/b.md: no such file', 'docs/a.md#part-three: no heading or id "part-three" in docs/a.md']);
  });
});
