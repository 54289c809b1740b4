import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import { BROADCAST_CLOSE, type BroadcastClientMessage, type TailFilters } from '@pulseboard/contracts';
import type { BroadcastEnv } from './env.ts';
import { changeFrame, type ChangeFrame, type Hub, type Subscriber } from './hub.ts';
import type { BroadcastMetrics } from './metrics.ts';
import { accountProjects, catchUp, type Principal } from './repository.ts';
import { Tail, type TailSink } from './tail.ts';
import type { TailFeed } from './tail-feed.ts';
import type { TileViews } from './tile-views.ts';
import { isThrottled, type Authenticate } from './auth-throttle.ts';

export interface ConnectionDeps {
  env: BroadcastEnv;
  pool: Pool;
  logger: Logger;
  metrics: BroadcastMetrics;
  hub: Hub;
  tiles: TileViews;
  tailFeed: TailFeed;
  authenticate: Authenticate;
  parse: (text: string) => BroadcastClientMessage | undefined;
}

interface Subscription {
  project: string;
  /** The last position sent: later changes only. */
  position: number;
  /** Live changes that arrive while the catch-up is read; null once live. */
  held: ChangeFrame[] | null;
  /** Tile messages that arrive meanwhile (sent after the snapshot, which they may postdate). */
  heldFrames: Buffer[];
}

/** One client: authentication, subscriptions with resume, and the slow-consumer bound. */
export class ClientConnection implements Subscriber, TailSink {
  principal: Principal | undefined;
  /** Answered the last ping (heartbeat). */
  alive = true;
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly tails = new Map<string, Tail>();
  private authTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    readonly ws: WebSocket,
    private readonly deps: ConnectionDeps,
    principal: Principal | undefined,
    /** The client's address (fastify's, behind TRUST_PROXY): what failed `auth` messages are counted for. */
    private readonly client = '',
  ) {
    ws.on('message', (data, isBinary) => void this.onMessage(data as Buffer, isBinary).catch((error: unknown) => this.fail(error)));
    ws.on('pong', () => (this.alive = true));
    ws.on('close', () => this.dispose());
    ws.on('error', () => this.dispose());
    if (principal === undefined) {
      this.authTimer = setTimeout(
        () => this.close(BROADCAST_CLOSE.authTimeout, 'authentication timed out', 'auth_timeout'),
        deps.env.BROADCAST_AUTH_TIMEOUT_MS,
      );
    } else {
      this.ready(principal);
    }
  }

  /** Sends unless the client is too slow: past the bound it is closed instead of buffered without limit. */
  send(text: string | Buffer): void {
    if (this.closed) return;
    if (this.ws.bufferedAmount > this.deps.env.BROADCAST_MAX_BUFFERED_BYTES) {
      this.close(BROADCAST_CLOSE.slowConsumer, 'slow consumer', 'slow_consumer');
      return;
    }
    // Every message of the protocol is JSON text: a text frame, also when handed over as bytes.
    this.ws.send(text, { binary: false });
    this.deps.metrics.messagesSent.inc();
  }

  /** Tail events use at most half the slow-client bound: a busy tail is skipped long before the connection would be cut. */
  roomForEvents(): boolean {
    return this.ws.bufferedAmount <= this.deps.env.BROADCAST_MAX_BUFFERED_BYTES / 2;
  }

  deliverFrame(projectKey: string, frame: Buffer): void {
    const sub = this.subscriptions.get(projectKey);
    if (sub === undefined) return;
    if (sub.held !== null) sub.heldFrames.push(frame);
    else this.send(frame);
  }

  deliver(change: ChangeFrame): void {
    const sub = this.subscriptions.get(change.projectKey);
    if (sub === undefined) return;
    if (sub.held !== null) {
      sub.held.push(change);
      return;
    }
    if (change.position <= sub.position) return; // a duplicate (at-least-once relay) or already sent in the catch-up
    sub.position = change.position;
    this.send(change.frame);
  }

  /** The projects this connection subscribes to or tails. */
  subscribedProjects(): string[] {
    return [...new Set([...this.subscriptions.keys(), ...this.tails.keys()])];
  }

  /** The project was deleted: its subscription and tail end, the connection stays for the others. */
  endSubscription(project: string, reason: 'project_deleted'): void {
    if (this.principal !== undefined) this.principal.projects = this.principal.projects.filter((p) => p.project_key !== project);
    const tail = this.tails.get(project);
    if (tail !== undefined) {
      this.tails.delete(project);
      this.deps.tailFeed.remove(tail);
      this.send(JSON.stringify({ type: 'untailed', v: 1, project, reason }));
    }
    if (!this.subscriptions.delete(project)) return;
    this.deps.hub.remove(project, this);
    this.send(JSON.stringify({ type: 'unsubscribed', project, reason }));
  }

  private ready(principal: Principal): void {
    this.principal = principal;
    this.send(JSON.stringify({ type: 'ready', kind: principal.kind, projects: principal.projects }));
  }

  private async onMessage(data: Buffer, isBinary: boolean): Promise<void> {
    if (isBinary || data.length > this.deps.env.BROADCAST_MAX_MESSAGE_BYTES)
      return this.close(BROADCAST_CLOSE.badMessage, 'message not understood', 'bad_message');
    const message = this.deps.parse(data.toString('utf8'));
    if (message === undefined) return this.close(BROADCAST_CLOSE.badMessage, 'message not understood', 'bad_message');
    if (message.type === 'ping') return this.send('{"type":"pong"}');
    if (message.type === 'auth') {
      if (this.principal !== undefined) return this.error('already_authenticated', 'this connection is already authenticated');
      clearTimeout(this.authTimer);
      const outcome = await this.deps.authenticate(message.token, this.client);
      if (outcome === undefined) return this.close(BROADCAST_CLOSE.authFailed, 'authentication failed', 'auth_failed');
      if (isThrottled(outcome)) return this.close(BROADCAST_CLOSE.authFailed, 'too many failed authentications', 'auth_throttled');
      return this.ready(outcome);
    }
    if (this.principal === undefined) return this.close(BROADCAST_CLOSE.authFailed, 'authenticate first', 'auth_failed');
    if (message.type === 'unsubscribe') {
      this.subscriptions.delete(message.project);
      this.deps.hub.remove(message.project, this);
      return this.send(JSON.stringify({ type: 'unsubscribed', project: message.project }));
    }
    if (message.type === 'tail') return this.tail(message.project, message.filters ?? {});
    if (message.type === 'untail') {
      const tail = this.tails.get(message.project);
      if (tail === undefined) return this.error('not_tailing', `not tailing ${message.project}`, message.project);
      this.tails.delete(message.project);
      this.deps.tailFeed.remove(tail);
      return this.send(JSON.stringify({ type: 'untailed', v: 1, project: message.project }));
    }
    return this.subscribe(message.project, message.since);
  }

  /** Whether this credential may see the project (a user's account may have gained it since the connection began: read again before a refusal). */
  private async sees(project: string): Promise<boolean> {
    const principal = this.principal!;
    const sees = () => principal.projects.some((p) => p.project_key === project);
    if (!sees() && principal.kind === 'user') principal.projects = await accountProjects(this.deps.pool, principal.accountId);
    return sees();
  }

  /** Subscriptions and tails share one bound. */
  private full(project: string): boolean {
    if (this.subscriptions.size + this.tails.size < this.deps.env.BROADCAST_MAX_SUBSCRIPTIONS) return false;
    this.error('too_many_subscriptions', `at most ${this.deps.env.BROADCAST_MAX_SUBSCRIPTIONS} subscriptions and tails per connection`, project);
    return true;
  }

  private async tail(project: string, filters: TailFilters): Promise<void> {
    // A project this client may not see looks exactly like one that does not exist.
    if (!(await this.sees(project))) return this.error('project_not_found', `no project ${project} for this credential`, project);
    if (this.tails.has(project)) return this.error('already_tailing', `already tailing ${project}`, project);
    if (this.full(project)) return;
    const tail = new Tail(project, filters, this.deps.env.BROADCAST_TAIL_MAX_PER_SECOND, this);
    this.tails.set(project, tail);
    await this.deps.tailFeed.add(tail);
    // Gone meanwhile (closed, untailed, project deleted): not delivered to.
    if (this.tails.get(project) !== tail || this.closed) return this.deps.tailFeed.remove(tail);
    this.send(JSON.stringify({ type: 'tailing', v: 1, project, filters, max_per_second: tail.perSecond }));
  }

  private async subscribe(project: string, since: number | undefined): Promise<void> {
    // A project this client may not see looks exactly like one that does not exist.
    if (!(await this.sees(project))) return this.error('project_not_found', `no project ${project} for this credential`, project);
    if (this.subscriptions.has(project)) return this.error('already_subscribed', `already subscribed to ${project}`, project);
    if (this.full(project)) return;
    const sub: Subscription = { project, position: since ?? 0, held: [], heldFrames: [] };
    this.subscriptions.set(project, sub);
    // Live changes are held from here on, so none falls between the catch-up and going live.
    this.deps.hub.add(project, this);
    // The project's tiles are followed from here on (read once for the first subscriber of this instance).
    await this.deps.tiles.watch(project);
    const result = await catchUp(this.deps.pool, project, since, this.deps.env.BROADCAST_RESUME_MAX_CHANGES);
    if (this.subscriptions.get(project) !== sub) return;
    if (result.kind === 'snapshot') {
      sub.position = result.position;
      this.send(JSON.stringify({ type: 'snapshot', project, position: result.position, tiles: result.tiles }));
    } else {
      for (const change of result.changes) {
        sub.position = change.position;
        this.send(changeFrame(change).frame);
      }
    }
    this.send(JSON.stringify({ type: 'subscribed', project, position: sub.position, resumed: result.kind === 'changes' }));
    const held = sub.held ?? [];
    sub.held = null;
    for (const change of held.sort((a, b) => a.position - b.position)) this.deliver(change);
    for (const frame of sub.heldFrames.splice(0)) this.send(frame);
  }

  private error(code: string, message: string, project?: string): void {
    this.send(JSON.stringify({ type: 'error', code, message, ...(project === undefined ? {} : { project }) }));
  }

  private fail(error: unknown): void {
    this.deps.logger.warn({ event: 'connection_failed', err: error });
    this.close(1011, 'internal error', 'internal_error');
  }

  close(code: number, reason: string, metric: string): void {
    if (this.closed) return;
    this.deps.metrics.closed.inc({ reason: metric });
    this.deps.logger.info({ event: 'connection_closed_by_server', code, reason: metric });
    this.ws.close(code, reason);
    // A client that reads nothing never completes the closing handshake.
    setTimeout(() => this.ws.terminate(), 5000).unref();
    this.dispose();
  }

  private dispose(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.authTimer);
    for (const project of this.subscriptions.keys()) this.deps.hub.remove(project, this);
    this.subscriptions.clear();
    for (const tail of this.tails.values()) this.deps.tailFeed.remove(tail);
    this.tails.clear();
  }
}
