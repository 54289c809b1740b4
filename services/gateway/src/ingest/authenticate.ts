import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Pool } from '@pulseboard/db';
import type { ProjectAuth, ProjectDirectory } from '../auth/project-directory.ts';
import { USER_TOKEN_PREFIX, bearerToken, hashSecret } from '../auth/credentials.ts';
import { apiError, errors, type ApiError } from '../replies.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The project of the request's API key, set by the ingest endpoints' onRequest hook. */
    project?: ProjectAuth;
    apiKey?: string;
  }
}

/**
 * The sender of events: a project API key (spec 5). Keys are resolved from the
 * directory's in-memory cache (hash lookup, constant-time compare), so the hot
 * path never waits on Postgres. A user token is a valid credential of the
 * wrong kind: 403, mirroring CONTRACT's `user_token_required` on notifications.
 */
export async function authenticateSender(
  authorization: string | undefined,
  deps: { directory: ProjectDirectory; pool: Pool },
): Promise<{ project: ProjectAuth; apiKey: string } | ApiError> {
  const apiKey = bearerToken(authorization);
  if (apiKey === undefined) return errors.authenticationRequired();
  if (apiKey.startsWith(USER_TOKEN_PREFIX)) {
    const { rowCount } = await deps.pool.query('SELECT 1 FROM users WHERE token_hash = $1', [hashSecret(apiKey)]);
    return rowCount === 0
      ? errors.invalidApiKey()
      : apiError(403, 'api_key_required', "Events are sent with the project's API key; a user token cannot send events");
  }
  const project = await deps.directory.byApiKey(apiKey);
  if (project === undefined) return errors.invalidApiKey();
  if (project.deleted) return errors.projectNotFound();
  return { project, apiKey };
}

/** onRequest hook: authenticates before the body is even read. */
export function senderAuthHook(deps: { directory: ProjectDirectory; pool: Pool }, fail: (reply: FastifyReply, error: ApiError) => FastifyReply) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const sender = await authenticateSender(request.headers.authorization, deps);
    if ('status' in sender) return fail(reply, sender);
    request.project = sender.project;
    request.apiKey = sender.apiKey;
  };
}
