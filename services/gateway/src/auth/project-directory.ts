import type { Pool } from '@pulseboard/db';
import type { RedisClient } from '../redis-client.ts';
import type { LimitSet } from '../limits/limiter.ts';
import { Limiter } from '../limits/limiter.ts';
import { hashSecret, sameHash } from './credentials.ts';

export interface ProjectAuth {
  projectKey: string;
  accountId: number;
  name: string;
  revision: number;
  keyHash: Buffer;
  deleted: boolean;
  limits: LimitSet;
}

export interface LimitDefaults {
  burst: number;
  projectHourly: number;
  accountHourly: number;
  globalHourly: number;
}

interface ProjectRow {
  project_key: string;
  account_id: number;
  name: string;
  revision: number;
  api_key_hash: Buffer;
  deleted_at: Date | null;
  burst_limit: number | null;
  hourly_request_limit: number | null;
  account_hourly_request_limit: number | null;
  monthly_quota: number;
}

const SELECT_PROJECT = `
  SELECT p.project_key, p.account_id, p.name, p.revision, p.api_key_hash, p.deleted_at,
         p.burst_limit, p.hourly_request_limit, a.hourly_request_limit AS account_hourly_request_limit, p.monthly_quota
    FROM projects p JOIN accounts a ON a.id = p.account_id`;

// Revisions only grow and Postgres holds the truth: Redis takes Postgres' value
// unless it already knows a newer one (a regeneration about to commit).
const PUBLISH_REVISION = `
local current = redis.call('GET', KEYS[1])
if not current or tonumber(current) < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return redis.call('GET', KEYS[1])`;

export async function publishRevision(redis: RedisClient, projectKey: string, revision: number): Promise<number> {
  return Number(await redis.eval(PUBLISH_REVISION, 1, Limiter.revisionKey(projectKey), String(revision)));
}

/**
 * Resolves API keys and project keys to projects without a Postgres round trip
 * on the hot path: entries are cached in memory, and each request's limiter
 * call compares the cached revision with Redis, so a regenerated key or changed
 * limit is seen by every gateway instance on the very next request.
 */
export class ProjectDirectory {
  private readonly byKeyHash = new Map<string, ProjectAuth>();
  private readonly byProjectKey = new Map<string, ProjectAuth>();
  // Hashes known not to be keys; a fresh key is random, so it can never be in here.
  private readonly unknownHashes = new Map<string, number>();

  constructor(
    private readonly pool: Pool,
    private readonly redis: RedisClient,
    private readonly defaults: LimitDefaults,
    private readonly maxEntries = 100_000,
  ) {}

  /**
   * The project of an API key, or undefined for an unknown key: synchronously
   * when the cache knows the answer (every request but a key's first), so the
   * hot path does not even wait a microtask; otherwise a promise of Postgres' answer.
   */
  byApiKey(apiKey: string): ProjectAuth | undefined | Promise<ProjectAuth | undefined> {
    const hash = hashSecret(apiKey);
    const id = hash.toString('base64');
    const cached = this.byKeyHash.get(id);
    if (cached !== undefined && sameHash(cached.keyHash, hash)) return cached;
    if (this.unknownHashes.has(id)) return undefined;
    return this.load('p.api_key_hash = $1', hash).then((found) => {
      if (found === undefined) this.rememberUnknown(id);
      return found;
    });
  }

  /** The project named by a project key (webhooks), or undefined. */
  async byKey(projectKey: string): Promise<ProjectAuth | undefined> {
    return this.byProjectKey.get(projectKey) ?? (await this.load('p.project_key = $1', projectKey));
  }

  /**
   * Re-reads a project after the limiter said the cached revision is stale, and
   * publishes Postgres' revision to Redis when Redis has none (e.g. after a restart).
   * Returns undefined when the project (or, with an API key, that key) is gone.
   */
  async refresh(project: ProjectAuth, apiKey?: string): Promise<ProjectAuth | undefined> {
    this.forget(project);
    return apiKey === undefined ? this.load('p.project_key = $1', project.projectKey) : this.load('p.api_key_hash = $1', hashSecret(apiKey));
  }

  forget(project: ProjectAuth): void {
    this.byKeyHash.delete(project.keyHash.toString('base64'));
    this.byProjectKey.delete(project.projectKey);
  }

  private async load(where: string, value: unknown): Promise<ProjectAuth | undefined> {
    const { rows } = await this.pool.query<ProjectRow>(`${SELECT_PROJECT} WHERE ${where}`, [value]);
    const row = rows[0];
    if (row === undefined) return undefined;
    const project = this.toAuth(row);
    await publishRevision(this.redis, project.projectKey, project.revision);
    if (this.byKeyHash.size >= this.maxEntries) {
      this.byKeyHash.clear();
      this.byProjectKey.clear();
    }
    this.byKeyHash.set(project.keyHash.toString('base64'), project);
    this.byProjectKey.set(project.projectKey, project);
    return project;
  }

  private rememberUnknown(id: string): void {
    if (this.unknownHashes.size >= this.maxEntries) this.unknownHashes.clear();
    this.unknownHashes.set(id, Date.now());
  }

  private toAuth(row: ProjectRow): ProjectAuth {
    return {
      projectKey: row.project_key,
      accountId: row.account_id,
      name: row.name,
      revision: row.revision,
      keyHash: row.api_key_hash,
      deleted: row.deleted_at !== null,
      limits: {
        burst: row.burst_limit ?? this.defaults.burst,
        projectHourly: row.hourly_request_limit ?? this.defaults.projectHourly,
        accountHourly: row.account_hourly_request_limit ?? this.defaults.accountHourly,
        globalHourly: this.defaults.globalHourly,
        monthlyQuota: row.monthly_quota,
      },
    };
  }
}
