import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { BROADCAST_CLOSE } from '@pulseboard/contracts';
import type { ClientConnection } from './connection.ts';
import { liveCredentials, liveProjects } from './repository.ts';

/** What to check again: user tokens (not on the control feed), and the key connections and subscriptions of some projects or all. */
export interface RevalidationScope {
  users: boolean;
  projects: 'all' | ReadonlySet<string>;
}

/**
 * Ends what a control-plane change took away: a regenerated key or deleted
 * user closes its connections (4003), a deleted project ends its
 * subscriptions and tails. Triggered per project by the control feed, for user
 * tokens by a short poll, for everything by the slow safety poll. Checks run
 * one after another, so none is lost while another reads.
 */
export class Revalidator {
  private chain: Promise<void> = Promise.resolve();
  private polling = false;

  constructor(private readonly deps: { pool: Pool; logger: Logger; connections: () => Iterable<ClientConnection> }) {}

  /** Queued behind any check under way (the control feed: never dropped). */
  now(scope: RevalidationScope): Promise<void> {
    this.chain = this.chain.then(() => this.check(scope));
    return this.chain;
  }

  /** A poll tick: skipped while a check is under way (the next tick comes). */
  poll(scope: RevalidationScope): void {
    if (this.polling) return;
    this.polling = true;
    void this.now(scope).finally(() => (this.polling = false));
  }

  private async check(scope: RevalidationScope): Promise<void> {
    const held = [...this.deps.connections()].filter((c) => c.principal !== undefined);
    if (held.length === 0) return;
    const inScope = (project: string) => scope.projects === 'all' || scope.projects.has(project);
    const keyed = held.filter((c) => c.principal!.kind === 'project' && c.principal!.projects.some((p) => inScope(p.project_key)));
    const users = scope.users ? held.filter((c) => c.principal!.kind === 'user') : [];
    // A project key's connection ends with its project (the key goes with it); a user's connection only loses that subscription.
    const projects = [...new Set(held.flatMap((c) => c.subscribedProjects()).filter(inScope))];
    try {
      const [live, existing] = await Promise.all([
        liveCredentials(
          this.deps.pool,
          keyed.map((c) => c.principal!.credentialHash),
          users.map((c) => c.principal!.credentialHash),
        ),
        liveProjects(this.deps.pool, projects),
      ]);
      for (const c of [...keyed, ...users]) {
        if (!live.has(c.principal!.credentialHash.toString('hex'))) c.close(BROADCAST_CLOSE.credentialRevoked, 'credential revoked', 'credential_revoked');
      }
      for (const c of held)
        for (const project of c.subscribedProjects()) if (projects.includes(project) && !existing.has(project)) c.endSubscription(project, 'project_deleted');
    } catch (error) {
      this.deps.logger.warn({ event: 'revalidation_failed', err: error });
    }
  }
}

/**
 * The polls behind the control feed. User tokens are not on the feed: checked
 * again every `usersMs`. Everything the feed carries (keys, projects, and the
 * dashboards' tiles through `refreshTiles`) is read again every `allMs`, only
 * a safety net for a lost message. Answers the function that stops them.
 */
export function startRevalidationPolls(
  revalidator: Pick<Revalidator, 'poll'>,
  refreshTiles: () => void,
  intervals: { usersMs: number; allMs: number },
): () => void {
  const users = setInterval(() => revalidator.poll({ users: true, projects: new Set() }), intervals.usersMs);
  const all = setInterval(() => {
    revalidator.poll({ users: true, projects: 'all' });
    refreshTiles();
  }, intervals.allMs);
  return () => {
    clearInterval(users);
    clearInterval(all);
  };
}
