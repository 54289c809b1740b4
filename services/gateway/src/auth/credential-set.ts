import type { Pool } from '@pulseboard/db';
import type { Logger } from 'pino';
import type { RedisClient } from '../redis-client.ts';
import { LIMITER_HASH_TAG } from '../limits/limiter.ts';

const MEMBERS = `${LIMITER_HASH_TAG}:cred:valid`;
// A member of the set itself (hashes are 32 bytes, never this): whatever evicts or flushes the set takes it along.
const LOADED = 'loaded';
// A credential without expiry: a score no clock reaches (Lua reads scores as doubles).
const NEVER = 1e15;
const LOAD_BATCH = 5000;

// -1: the set was never loaded (or Redis lost it); 1: a member that has not expired; 0: not one.
const HAS = `
if not redis.call('ZSCORE', KEYS[1], ARGV[3]) then return -1 end
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) > tonumber(ARGV[2]) then return 1 end
return 0`;

/**
 * The hashes of every credential that may be valid (project API keys, user
 * tokens with their expiry), in one Redis sorted set shared by every gateway:
 * what lets a throttled client address or key prefix still use a valid
 * credential without a Postgres lookup for the failing ones (auth-throttle.ts).
 *
 * It is a filter, not the truth: Postgres decides every credential it lets
 * through. A new credential is added before the row that makes it valid is
 * committed (its secret is shown only after), so a valid credential is never
 * missing. A revoked token and a replaced key are removed once their change
 * commits; one left behind (a deleted user or project, a lost removal) lingers
 * until it is presented while throttled, when its failed lookup removes it
 * (one lookup per such credential).
 * Loaded from Postgres when Redis has no set (first start, Redis restarted or
 * flushed), by whichever gateway sees that first.
 */
export class CredentialSet {
  private loading: Promise<void> | undefined;

  constructor(
    private readonly redis: RedisClient,
    private readonly pool: Pool,
    private readonly logger?: Logger,
  ) {}

  /** Adds a credential about to become valid (before its row commits), until its expiry. */
  async admit(hash: Buffer, expiresAt: Date | null = null): Promise<void> {
    await this.redis.zadd(MEMBERS, expiresAt === null ? NEVER : expiresAt.getTime(), hash);
  }

  /** Whether the credential may be valid (a member not yet expired). Loads the set first when Redis has none. */
  async has(hash: Buffer, now = Date.now()): Promise<boolean> {
    let answer = Number(await this.redis.eval(HAS, 1, MEMBERS, hash, String(now), LOADED));
    if (answer === -1) {
      await this.load();
      answer = Number(await this.redis.eval(HAS, 1, MEMBERS, hash, String(now), LOADED));
    }
    return answer === 1;
  }

  /** Removes a member Postgres no longer knows (revoked, regenerated, deleted). */
  async drop(hash: Buffer): Promise<void> {
    await this.redis.zrem(MEMBERS, hash);
  }

  /** Loads the set from Postgres unless Redis holds one; one load at a time per gateway. */
  async ensureLoaded(): Promise<void> {
    if ((await this.redis.zscore(MEMBERS, LOADED)) === null) await this.load();
  }

  private load(): Promise<void> {
    this.loading ??= this.loadFromPostgres().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async loadFromPostgres(): Promise<void> {
    const started = Date.now();
    let count = 0;
    // Key-set pages (the hash columns are unique indexes): no long-held snapshot, bounded memory.
    const sources = [
      `SELECT api_key_hash AS h, NULL::timestamptz AS expires_at FROM projects WHERE deleted_at IS NULL AND api_key_hash > $1 ORDER BY api_key_hash LIMIT ${LOAD_BATCH}`,
      `SELECT token_hash AS h, expires_at FROM user_tokens WHERE (expires_at IS NULL OR expires_at > now()) AND token_hash > $1 ORDER BY token_hash LIMIT ${LOAD_BATCH}`,
    ];
    for (const sql of sources) {
      let after = Buffer.alloc(0);
      for (;;) {
        const { rows } = await this.pool.query<{ h: Buffer; expires_at: Date | null }>(sql, [after]);
        if (rows.length === 0) break;
        const args: (number | Buffer)[] = [];
        for (const row of rows) args.push(row.expires_at === null ? NEVER : row.expires_at.getTime(), row.h);
        await this.redis.zadd(MEMBERS, ...args);
        count += rows.length;
        after = Buffer.from(rows[rows.length - 1]!.h);
        if (rows.length < LOAD_BATCH) break;
      }
    }
    // Expired members go with each load; what was added meanwhile stays (additions only).
    await this.redis.zremrangebyscore(MEMBERS, '-inf', String(Date.now()));
    await this.redis.zadd(MEMBERS, NEVER, LOADED);
    this.logger?.info({ event: 'credential_set_loaded', credentials: count, duration_ms: Date.now() - started });
  }
}
