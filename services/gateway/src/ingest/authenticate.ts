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

type Sender = { project: ProjectAuth; apiKey: string } | ApiError;

/**
 * The sender of events: a project API key (spec 5). Keys are resolved from the
 * directory's in-memory cache (hash lookup, constant-time compare), so the hot
 * path never waits on Postgres. A user token is a valid credential of the
 * wrong kind: 403, mirroring CONTRACT's `user_token_required` on notifications.
 * Synchronous when the directory's cache answers (the hot path); a promise when
 * Postgres must be asked (a key's first request, or a user token).
 */
export function authenticateSender(authorization: string | undefined, deps: { directory: ProjectDirectory; pool: Pool }): Sender | Promise<Sender> {
  const apiKey = bearerToken(authorization);
  if (apiKey === undefined) return errors.authenticationRequired();
  if (apiKey.startsWith(USER_TOKEN_PREFIX)) return userTokenSender(apiKey, deps.pool);
  const project = deps.directory.byApiKey(apiKey);
  return project instanceof Promise ? project.then((p) => senderOf(p, apiKey)) : senderOf(project, apiKey);
}

function senderOf(project: ProjectAuth | undefined, apiKey: string): Sender {
  if (project === undefined) return errors.invalidApiKey();
  if (project.deleted) return errors.projectNotFound();
  return { project, apiKey };
}

async function userTokenSender(token: string, pool: Pool): Promise<ApiError> {
  const { rowCount } = await pool.query('SELECT 1 FROM users WHERE token_hash = $1', [hashSecret(token)]);
  return rowCount === 0 ? errors.invalidApiKey() : apiError(403, 'api_key_required', "Events are sent with the project's API key; a user token cannot send events");
}

/**
 * onRequest hook: authenticates before the body is even read, then runs the
 * route's own check of the sender (e.g. a project named in a header). Callback
 * style, not async: on the cached path it finishes in the same tick, with no promise.
 */
export function senderAuthHook(
  deps: { directory: ProjectDirectory; pool: Pool },
  fail: (reply: FastifyReply, error: ApiError) => FastifyReply,
  check?: (request: FastifyRequest, project: ProjectAuth) => ApiError | undefined,
) {
  const apply = (request: FastifyRequest, reply: FastifyReply, sender: Sender, done: (error?: Error) => void) => {
    if ('status' in sender) {
      fail(reply, sender);
      return;
    }
    const refusal = check?.(request, sender.project);
    if (refusal !== undefined) {
      fail(reply, refusal);
      return;
    }
    request.project = sender.project;
    request.apiKey = sender.apiKey;
    done();
  };
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void => {
    const sender = authenticateSender(request.headers.authorization, deps);
    if (sender instanceof Promise) sender.then((s) => apply(request, reply, s, done), done);
    else apply(request, reply, sender, done);
  };
}
