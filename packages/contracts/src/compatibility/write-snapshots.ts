import { mkdirSync, writeFileSync } from 'node:fs';
import { currentSnapshots, SNAPSHOT_DIR } from './topic-snapshots.ts';

/** `pnpm topics:snapshot`, at a release: the topics' schemas as released, against which later changes are checked. */
mkdirSync(SNAPSHOT_DIR, { recursive: true });
for (const snapshot of currentSnapshots()) {
  writeFileSync(`${SNAPSHOT_DIR}${snapshot.topic}.json`, `${JSON.stringify(snapshot, null, 2)}\n`);
  console.log(`wrote docs/topic-schemas/${snapshot.topic}.json`);
}
