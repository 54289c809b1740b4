import type { Pool } from '@pulseboard/db';
import type { RedisClient } from '../redis-client.ts';
import type { LimitSubject } from '../limits/limiter.ts';
import { findProjectAuth, type ProjectAuthRow } from '../repositories/projects.ts';
import { hashSecret, sameHash } from '@pulseboard/contracts';
import { publishRevision, revisionKey } from './revision.ts';

/** A project as authentication caches it; it is also the limiter's subject (its revision the limiter's fence). */
export interface ProjectAuth extends LimitSubject {
  name: string;
  keyHash: Buffer;
  deleted: boolean;
  /** Days its events are kept: the timestamp window's lower edge (CONTRACT Events, Retention). */
  retentionDays: number;
}

export interface LimitDefaults {
  burst: number;
  projectHourly: number;
  accountHourly: number;
  globalHourly: number;
  retentionDays: number;
}

/**
 * Resolves API keys and project keys to projects without a Postgres round trip
 * on the hot path: entries are cached in memory. Whether a cached entry is
 * still current is asked of Redis on every request (see Authenticator), so a
 * regenerated key or changed limit is seen by every gateway instance on the
 * very next request.
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

  /** The project of an API key when the cache holds it (the hot path), else undefined. */
  cachedApiKey(apiKey: string): ProjectAuth | undefined {
    const hash = hashSecret(apiKey);
    const cached = this.byKeyHash.get(hash.toString('base64'));
    return cached !== undefined && sameHash(cached.keyHash, hash) ? cached : undefined;
  }

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
    return this.load({ apiKeyHash: hash }).then((found) => {
      if (found === undefined) this.rememberUnknown(id);
      return found;
    });
  }

  /** The project named by a project key, or undefined. */
  async byKey(projectKey: string): Promise<ProjectAuth | undefined> {
    return this.byProjectKey.get(projectKey) ?? (await this.load({ projectKey }));
  }

  /**
   * Re-reads a project whose cached revision Redis called stale, and publishes
   * Postgres' revision to Redis when Redis has none (e.g. after a restart).
   * Returns undefined when the project (or, with an API key, that key) is gone.
   */
  async refresh(project: ProjectAuth, apiKey?: string): Promise<ProjectAuth | undefined> {
    this.forget(project);
    return this.load(apiKey === undefined ? { projectKey: project.projectKey } : { apiKeyHash: hashSecret(apiKey) });
  }

  private forget(project: ProjectAuth): void {
    this.byKeyHash.delete(project.keyHash.toString('base64'));
    this.byProjectKey.delete(project.projectKey);
  }

  private async load(by: { apiKeyHash: Buffer } | { projectKey: string }): Promise<ProjectAuth | undefined> {
    const row = await findProjectAuth(this.pool, by);
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

  private toAuth(row: ProjectAuthRow): ProjectAuth {
    return {
      projectKey: row.project_key,
      accountId: row.account_id,
      name: row.name,
      revisionKey: revisionKey(row.project_key),
      revision: row.revision,
      keyHash: row.api_key_hash,
      deleted: row.deleted_at !== null,
      retentionDays: row.retention_days ?? this.defaults.retentionDays,
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
