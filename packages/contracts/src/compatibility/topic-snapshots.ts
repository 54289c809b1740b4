import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { topicDefinitions, type TopicDefinition } from '../topics.ts';
import { breakingChanges } from './schema-compat.ts';

/** Snapshots of the topics' schemas as last released: docs/topic-schemas/<topic name>.json (`pnpm topics:snapshot` at a release). */
export const SNAPSHOT_DIR = fileURLToPath(new URL('../../../../docs/topic-schemas/', import.meta.url));

export interface TopicSnapshot {
  topic: string;
  id: string;
  version: number;
  key: string;
  headers: Record<string, unknown>;
  valueSchema: object | null;
}

export function snapshotOf(topic: TopicDefinition<unknown, never>): TopicSnapshot {
  return { topic: topic.name, id: topic.id, version: topic.version, key: topic.key, headers: topic.headers, valueSchema: topic.valueSchema ?? null };
}

export function readSnapshots(dir = SNAPSHOT_DIR): TopicSnapshot[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(`${dir}${f}`, 'utf8')) as TopicSnapshot);
}

/**
 * Each topic against its released snapshot (same id): a breaking change of the
 * value schema is allowed only with a higher version (a new `.vN` topic).
 * A topic without a snapshot is new, and compatible by definition.
 */
export function compatibilityProblems(topics: TopicDefinition<unknown, never>[], snapshots: TopicSnapshot[]): string[] {
  const problems: string[] = [];
  for (const topic of topics) {
    const released = snapshots.filter((s) => s.id === topic.id).sort((a, b) => b.version - a.version)[0];
    if (released === undefined) continue;
    if (topic.version < released.version) {
      problems.push(`${topic.id}: version ${topic.version} is below the released ${released.version}`);
      continue;
    }
    if (topic.version > released.version) continue;
    for (const change of breakingChanges(released.valueSchema, topic.valueSchema ?? null)) {
      problems.push(
        `${topic.name}: ${change}; raise the topic's version (${topic.name.replace(/\.v\d+$/, `.v${topic.version + 1}`)}) or keep the change compatible`,
      );
    }
  }
  return problems;
}

export function currentSnapshots(): TopicSnapshot[] {
  return topicDefinitions().map(snapshotOf);
}
