import type { RedisClient } from '../redis-client.ts';
import { LIMITER_HASH_TAG } from '../limits/limiter.ts';

/**
 * A project's revision grows with every change of its key or limits; Postgres
 * holds it and Redis mirrors it, so every gateway instance can tell in one
 * Redis read (or inside the limiter's one script call) whether its cached copy
 * of the project is current. The key shares the limiter's hash tag: the
 * limiter's script reads it with the counters, which on Redis Cluster must
 * live in one slot.
 */
export function revisionKey(projectKey: string): string {
  return `${LIMITER_HASH_TAG}:rev:${projectKey}`;
}

/** The revision Redis holds for a project, as text (null when Redis has none, e.g. after a restart). */
export function readRevision(redis: RedisClient, projectKey: string): Promise<string | null> {
  return redis.get(revisionKey(projectKey));
}

/** Sets the revision a project change is about to commit (or, after a failed change, what Postgres holds). */
export async function setRevision(redis: RedisClient, projectKey: string, revision: number): Promise<void> {
  await redis.set(revisionKey(projectKey), String(revision));
}

// Revisions only grow and Postgres holds the truth: Redis takes Postgres' value
// unless it already knows a newer one (a regeneration about to commit).
const PUBLISH_REVISION = `
local current = redis.call('GET', KEYS[1])
if not current or tonumber(current) < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return redis.call('GET', KEYS[1])`;

/** After reading a project from Postgres: makes sure Redis knows at least that revision. */
export async function publishRevision(redis: RedisClient, projectKey: string, revision: number): Promise<number> {
  return Number(await redis.eval(PUBLISH_REVISION, 1, revisionKey(projectKey), String(revision)));
}
