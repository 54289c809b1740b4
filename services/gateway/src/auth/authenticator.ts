import type { Counter } from 'prom-client';
import type { Pool } from '@pulseboard/db';
import { PulseboardError } from '@pulseboard/contracts';
import type { RedisClient } from '../redis-client.ts';
import { touchUserToken, userTokenByHash } from '../repositories/users.ts';
import { bearerToken, credentialKind, hashSecret } from '@pulseboard/contracts';
import type { ProjectAuth, ProjectDirectory } from './project-directory.ts';
import { readRevision } from './revision.ts';
import type { AuthThrottle, Attempt } from './auth-throttle.ts';
import type { CredentialSet } from './credential-set.ts';

const UNKNOWN_TOKEN_TTL_MS = 60_000;
// last_used_at is a hint: written at most this often per token by one gateway (no write per request).
const LAST_USED_EVERY_MS = 60_000;

/** Who a request's Bearer secret says it is: a project (API key `evk_`) or a user (token `evu_`). */
export type Credential = ProjectCredential | { kind: 'user'; userId: number; accountId: number };
export type ProjectCredential = { kind: 'project'; project: ProjectAuth; apiKey: string };

/**
 * The one authentication path of the gateway, for the ingest endpoints and the
 * read API alike: the Bearer secret is told apart by its prefix, a project key
 * is resolved from the directory's in-memory cache (hash lookup, constant-time
 * compare), a user token is looked up in Postgres on every request (these are
 * not the hot path, and a deleted user is then locked out at once). Failures
 * are thrown as catalog errors.
 *
 * Whether a cached project is still current is the revision check: Redis holds
 * each project's revision. The read API asks Redis here; the ingest endpoints
 * hand the revision to the limiter, whose one script call per request checks it
 * as a fence (no second round trip), and bring a `stale` answer back here
 * (`reloadStale`), so what a stale revision means is decided in one place.
 */
export class Authenticator {
  constructor(
    private readonly directory: ProjectDirectory,
    private readonly pool: Pool,
    private readonly redis: RedisClient,
    private readonly throttle: AuthThrottle,
    private readonly options: {
      /** Valid credentials' hashes: what a throttled request is checked against instead of Postgres. */
      credentials: CredentialSet;
      /** Counts the Postgres lookups of credentials, by kind. */
      lookups?: Counter<'kind'>;
    },
  ) {}

  /** A credential about to be issued (before it is stored): a throttled address can use it at once. */
  admit(hash: Buffer, expiresAt: Date | null = null): Promise<void> {
    return this.options.credentials.admit(hash, expiresAt);
  }

  /**
   * A credential just revoked or replaced (after its commit): out of the valid-credential set at once, so
   * the set does not keep what Postgres no longer knows. Best effort: a member left behind costs one
   * lookup when presented while throttled, which removes it then.
   */
  forget(hash: Buffer): void {
    this.options.credentials.drop(hash).catch(() => undefined);
  }

  // Hashes of user tokens no user holds, until when. A new token is random, so it is never in
  // here; a token that stopped working is remembered as unknown for this long.
  private readonly unknownTokens = new Map<string, { until: number; expired: boolean }>();
  // Token id -> when this gateway last wrote its last_used_at.
  private readonly lastUsedWritten = new Map<number, number>();

  /**
   * The credential of an Authorization header: synchronously when it is a
   * cached project key (the hot path, no Redis or Postgres). Anything else
   * takes a slot of the failed-authentication throttle before its lookup
   * (auth-throttle.ts); past the limit only a credential the valid-credential
   * set knows is looked up, the rest are 429.
   */
  identify(authorization: string | undefined, client = ''): Credential | Promise<Credential> {
    const secret = bearerToken(authorization);
    if (secret === undefined) throw new PulseboardError('authentication_required');
    if (credentialKind(secret) === 'project') {
      const cached = this.directory.cachedApiKey(secret);
      if (cached !== undefined) return { kind: 'project', project: cached, apiKey: secret };
    }
    return this.identifyUncached(secret, client);
  }

  private async identifyUncached(secret: string, client: string): Promise<Credential> {
    const kind = credentialKind(secret);
    const attempt: Attempt | PulseboardError = await this.throttle.begin(client, secret);
    const throttled = attempt instanceof PulseboardError;
    // Over the limit: a credential is looked up only when the set of valid ones knows it.
    if (throttled && (kind === 'unknown' || !(await this.options.credentials.has(hashSecret(secret))))) throw attempt;
    let credential: Credential | 'expired' | undefined;
    switch (kind) {
      case 'project': {
        const found = this.directory.byApiKey(secret);
        if (found instanceof Promise) this.options.lookups?.inc({ kind: 'project' });
        const project = await found;
        if (project !== undefined) credential = { kind: 'project', project, apiKey: secret };
        break;
      }
      case 'user':
        credential = await this.user(secret);
        break;
      default:
        break;
    }
    if (credential === undefined || credential === 'expired') {
      // A member Postgres no longer knows (revoked, regenerated): out of the set, so it costs one lookup at most.
      if (throttled) this.options.credentials.drop(hashSecret(secret)).catch(() => undefined);
      throw credential === 'expired'
        ? new PulseboardError('invalid_api_key', { message: 'The user token has expired' })
        : new PulseboardError('invalid_api_key');
    }
    if (!throttled) this.throttle.succeeded(attempt);
    return credential;
  }

  /**
   * The sender of events (spec 5): a project's API key. A user token is a valid
   * credential of the wrong kind: 403 `api_key_required`, mirroring CONTRACT's
   * `user_token_required` on notifications. The revision is left to the limiter.
   */
  sender(authorization: string | undefined, client = ''): ProjectCredential | Promise<ProjectCredential> {
    const credential = this.identify(authorization, client);
    return credential instanceof Promise ? credential.then(senderOf) : senderOf(credential);
  }

  /** The credential of a /api/v1 resource request, a project key checked against its revision in Redis. */
  async principal(authorization: string | undefined, client = ''): Promise<Credential> {
    const credential = await this.identify(authorization, client);
    if (credential.kind === 'user') return credential;
    const current = await readRevision(this.redis, credential.project.projectKey);
    const project = current === String(credential.project.revision) ? live(credential.project) : await this.reloadStale(credential.project, credential.apiKey);
    return project === credential.project ? credential : { kind: 'project', project, apiKey: credential.apiKey };
  }

  /**
   * After Redis called a cached project's revision stale (key regenerated,
   * limits changed, Redis restarted): Postgres decides. The project as it is
   * now, or `invalid_api_key` (that key is no longer the project's) /
   * `project_not_found` (gone or deleted).
   */
  async reloadStale(project: ProjectAuth, apiKey?: string): Promise<ProjectAuth> {
    const fresh = await this.directory.refresh(project, apiKey);
    if (fresh === undefined) throw new PulseboardError(apiKey === undefined ? 'project_not_found' : 'invalid_api_key');
    return live(fresh);
  }

  /**
   * A user token's user; undefined for a token no user holds (remembered, so a
   * repeat costs no query); `expired` for a token past its expiry (remembered
   * too: it never comes back), answered as `invalid_api_key` saying so.
   */
  private async user(token: string): Promise<Credential | 'expired' | undefined> {
    const hash = hashSecret(token);
    const id = hash.toString('base64');
    const knownBad = this.unknownTokens.get(id);
    if (knownBad !== undefined && knownBad.until > Date.now()) return knownBad.expired ? 'expired' : undefined;
    this.options.lookups?.inc({ kind: 'user' });
    const holder = await userTokenByHash(this.pool, hash);
    if (holder === undefined || holder.expired) {
      if (this.unknownTokens.size >= 100_000) this.unknownTokens.clear();
      this.unknownTokens.set(id, { until: Date.now() + UNKNOWN_TOKEN_TTL_MS, expired: holder !== undefined });
      return holder === undefined ? undefined : 'expired';
    }
    this.noteUse(holder.token_id);
    return { kind: 'user', userId: holder.id, accountId: holder.account_id };
  }

  /** Writes a token's last_used_at off the request's path, at most once a minute per token. */
  private noteUse(tokenId: number): void {
    const now = Date.now();
    if ((this.lastUsedWritten.get(tokenId) ?? 0) > now - LAST_USED_EVERY_MS) return;
    if (this.lastUsedWritten.size >= 100_000) this.lastUsedWritten.clear();
    this.lastUsedWritten.set(tokenId, now);
    touchUserToken(this.pool, tokenId).catch(() => undefined);
  }
}

function live(project: ProjectAuth): ProjectAuth {
  if (project.deleted) throw new PulseboardError('project_not_found');
  return project;
}

function senderOf(credential: Credential): ProjectCredential {
  if (credential.kind === 'user') throw new PulseboardError('api_key_required');
  live(credential.project);
  return credential;
}
