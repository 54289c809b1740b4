import type { Pool } from '@pulseboard/db';
import { PulseboardError } from '@pulseboard/contracts';
import type { RedisClient } from '../redis-client.ts';
import { findUserByTokenHash } from '../repositories/users.ts';
import { bearerToken, credentialKind, hashSecret } from '@pulseboard/contracts';
import type { ProjectAuth, ProjectDirectory } from './project-directory.ts';
import { readRevision } from './revision.ts';

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
  ) {}

  /** The credential of an Authorization header: synchronously when it is a cached project key (the hot path). */
  identify(authorization: string | undefined): Credential | Promise<Credential> {
    const secret = bearerToken(authorization);
    if (secret === undefined) throw new PulseboardError('authentication_required');
    switch (credentialKind(secret)) {
      case 'project': {
        const project = this.directory.byApiKey(secret);
        return project instanceof Promise ? project.then((found) => projectCredential(found, secret)) : projectCredential(project, secret);
      }
      case 'user':
        return this.user(secret);
      default:
        throw new PulseboardError('invalid_api_key');
    }
  }

  /**
   * The sender of events (spec 5): a project's API key. A user token is a valid
   * credential of the wrong kind: 403 `api_key_required`, mirroring CONTRACT's
   * `user_token_required` on notifications. The revision is left to the limiter.
   */
  sender(authorization: string | undefined): ProjectCredential | Promise<ProjectCredential> {
    const credential = this.identify(authorization);
    return credential instanceof Promise ? credential.then(senderOf) : senderOf(credential);
  }

  /** The credential of a /api/v1 resource request, a project key checked against its revision in Redis. */
  async principal(authorization: string | undefined): Promise<Credential> {
    const credential = await this.identify(authorization);
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

  private async user(token: string): Promise<Credential> {
    const user = await findUserByTokenHash(this.pool, hashSecret(token));
    if (user === undefined) throw new PulseboardError('invalid_api_key');
    return { kind: 'user', userId: user.id, accountId: user.account_id };
  }
}

function projectCredential(project: ProjectAuth | undefined, apiKey: string): ProjectCredential {
  if (project === undefined) throw new PulseboardError('invalid_api_key');
  return { kind: 'project', project, apiKey };
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
