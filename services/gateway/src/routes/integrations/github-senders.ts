import { verify } from '@octokit/webhooks-methods';
import type { Pool } from '@pulseboard/db';
import { PulseboardError, unsealWith, type SecretKeys } from '@pulseboard/contracts';
import type { Authenticator } from '../../auth/authenticator.ts';
import type { ProjectAuth, ProjectDirectory } from '../../auth/project-directory.ts';
import { readRevision } from '../../auth/revision.ts';
import type { RedisClient } from '../../redis-client.ts';
import { findIntegrationSecret } from '../../repositories/integration-secrets.ts';

export interface GitHubSendersDeps {
  directory: Pick<ProjectDirectory, 'byKey'>;
  auth: Pick<Authenticator, 'reloadStale'>;
  redis: RedisClient;
  pool: Pool;
  /** SECRETS_KEY, and SECRETS_KEY_PREVIOUS during a rotation. */
  secretKeys: SecretKeys;
}

const refused = () => new PulseboardError('invalid_signature');

/** A project that went away while cached is refused like an unknown one; an outage stays an outage (503). */
function gone(error: unknown): never {
  if (error instanceof PulseboardError && (error.code === 'project_not_found' || error.code === 'invalid_api_key')) throw refused();
  throw error;
}

/**
 * Who sent a GitHub delivery: GitHub cannot send an API key, so the project is
 * named in the URL (`?project_key=`) and the delivery is authenticated by its
 * `X-Hub-Signature-256`, an HMAC of the exact body under the project's GitHub
 * secret (verified by @octokit/webhooks-methods, in constant time). An unknown
 * project, a project without a secret and a wrong signature are all the same
 * 401, so the endpoint tells nobody which projects exist. The project and its
 * sealed secret are cached per project revision (checked in Redis, as the read
 * API does), so a changed secret is used from the very next delivery and a
 * delivery costs no Postgres round trip.
 */
export class GitHubSenders {
  private readonly secrets = new Map<string, { revision: number; sealed: string | undefined }>();

  constructor(private readonly deps: GitHubSendersDeps) {}

  async verified(projectKey: string | undefined, signature: string | undefined, body: string | undefined): Promise<ProjectAuth> {
    if (projectKey === undefined || projectKey === '' || signature === undefined || !signature.startsWith('sha256=') || body === undefined) throw refused();
    const cached = await this.deps.directory.byKey(projectKey);
    if (cached === undefined || cached.deleted) throw refused();
    const revision = await readRevision(this.deps.redis, projectKey);
    const project = revision === String(cached.revision) ? cached : await this.deps.auth.reloadStale(cached).catch(gone);
    const sealed = await this.sealedSecret(project);
    if (sealed === undefined) throw refused();
    let secret: string;
    try {
      secret = unsealWith(sealed, this.deps.secretKeys).plain;
    } catch (error) {
      // Sealed under neither key: the operator's problem, not the sender's; still no delivery.
      throw new PulseboardError('invalid_signature', { cause: error });
    }
    if (!(await verify(secret, body, signature))) throw refused();
    return project;
  }

  private async sealedSecret(project: ProjectAuth): Promise<string | undefined> {
    const known = this.secrets.get(project.projectKey);
    if (known !== undefined && known.revision === project.revision) return known.sealed;
    const sealed = await findIntegrationSecret(this.deps.pool, project.projectKey, 'github');
    if (this.secrets.size >= 100_000) this.secrets.clear();
    this.secrets.set(project.projectKey, { revision: project.revision, sealed });
    return sealed;
  }
}
