import type { FastifyRequest } from 'fastify';
import type { PulseboardError } from '@pulseboard/contracts';
import type { Authenticator, ProjectCredential } from './authenticator.ts';
import type { ProjectAuth } from './project-directory.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The project of the request's API key, set by the ingest endpoints' onRequest hook. */
    project?: ProjectAuth;
    apiKey?: string;
  }
}

/**
 * onRequest hook of the ingest endpoints: authenticates the sender before the
 * body is even read, then runs the route's own check of it (e.g. a project
 * named in a header). Callback style, not async: on the cached path it
 * finishes in the same tick, with no promise.
 */
export function senderHook(
  auth: Pick<Authenticator, 'sender'>,
  check?: (request: FastifyRequest, project: ProjectAuth) => PulseboardError | undefined,
  /** Where the credential is: the Authorization header, unless a tool puts the key elsewhere (PagerDuty's routing_key). */
  authorizationOf: (request: FastifyRequest) => string | undefined = (request) => request.headers.authorization,
) {
  const accept = (request: FastifyRequest, sender: ProjectCredential, done: (error?: Error) => void): void => {
    const refusal = check?.(request, sender.project);
    if (refusal !== undefined) return done(refusal);
    request.project = sender.project;
    request.apiKey = sender.apiKey;
    done();
  };
  return (request: FastifyRequest, _reply: unknown, done: (error?: Error) => void): void => {
    let sender: ProjectCredential | Promise<ProjectCredential>;
    try {
      sender = auth.sender(authorizationOf(request), request.clientAddress);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (sender instanceof Promise) sender.then((s) => accept(request, s, done), done);
    else accept(request, sender, done);
  };
}
