import { describe, expect, it } from 'vitest';
import { TOPICS, topicDefinitions } from '../topics.ts';
import { breakingChanges } from './schema-compat.ts';
import { compatibilityProblems, currentSnapshots, readSnapshots, snapshotOf } from './topic-snapshots.ts';

const released = snapshotOf(TOPICS.tileChanges);
const schema = TOPICS.tileChanges.valueSchema as unknown as { properties: Record<string, Record<string, unknown>>; required: string[] };

/** The tile-changes topic with its schema changed by `edit` and, optionally, a new version. */
function changedTopic(edit: (s: typeof schema) => void, version = 1) {
  const next = structuredClone(schema);
  edit(next);
  return { ...TOPICS.tileChanges, version, name: `pulseboard.tile-changes.v${version}`, valueSchema: next } as never;
}

describe('topic schema compatibility', () => {
  it('every topic matches its snapshot of the last release (docs/topic-schemas/)', () => {
    expect(compatibilityProblems(topicDefinitions(), readSnapshots())).toEqual([]);
    // Every topic has a snapshot: a topic added since then needs `pnpm topics:snapshot` at the release.
    expect(
      readSnapshots()
        .map((s) => s.id)
        .sort(),
    ).toEqual(
      currentSnapshots()
        .map((s) => s.id)
        .sort(),
    );
  });

  it('fails on a field removed or renamed, a type narrowed, a new required field', () => {
    const removed = changedTopic((s) => delete s.properties.tile_name);
    expect(compatibilityProblems([removed], [released])).toEqual([
      expect.stringMatching(/\$\.tile_name: field removed \(or renamed\); raise the topic's version \(pulseboard\.tile-changes\.v2\)/),
    ]);

    const renamed = changedTopic((s) => {
      s.properties.name = s.properties.tile_name!;
      delete s.properties.tile_name;
    });
    expect(compatibilityProblems([renamed], [released]).join('\n')).toMatch(/tile_name: field removed/);

    const narrowed = changedTopic((s) => (s.properties.value = { type: 'number' }));
    expect(compatibilityProblems([narrowed], [released]).join('\n')).toMatch(/\$\.value: anyOf changed/);
    expect(breakingChanges({ type: 'object', properties: { n: { type: 'number' } } }, { type: 'object', properties: { n: { type: 'integer' } } })).toEqual([
      '$.n: type narrowed (no longer number)',
    ]);
    expect(
      breakingChanges({ type: 'object', properties: { n: { type: ['string', 'null'] } } }, { type: 'object', properties: { n: { type: 'string' } } }),
    ).toEqual(['$.n: type narrowed (no longer null)']);

    const required = changedTopic((s) => {
      s.properties.region = { type: 'string' };
      s.required.push('region');
    });
    expect(compatibilityProblems([required], [released])).toEqual([expect.stringMatching(/\$\.region: new required field/)]);

    const enumShrunk = changedTopic((s) => (s.properties.cause = { type: 'string', enum: ['event', 'time'] }));
    expect(compatibilityProblems([enumShrunk], [released]).join('\n')).toMatch(/cause: enum lost \["rule"\]/);
  });

  it('passes an added optional field, and a breaking change that comes with a new topic version', () => {
    const added = changedTopic((s) => (s.properties.region = { type: 'string' }));
    expect(compatibilityProblems([added], [released])).toEqual([]);
    const removedInV2 = changedTopic((s) => delete s.properties.tile_name, 2);
    expect(compatibilityProblems([removedInV2], [released])).toEqual([]);
  });
});
