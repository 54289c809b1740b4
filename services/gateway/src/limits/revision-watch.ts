import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { LIMITER_HASH_TAG } from './limiter.ts';

/** Every project's revision key starts with this (auth/revision.ts). */
const REVISION_PREFIX = `${LIMITER_HASH_TAG}:rev:`;
const INVALIDATE = '__redis__:invalidate';

/** What a fence confirmation is checked against: nothing may have changed between the read and the answer. */
export interface WatchToken {
  epoch: number;
  seq: number;
}

/**
 * Which projects' revisions this gateway knows to be current without asking
 * Redis: the fence of requests decided from leases. Redis pushes a message
 * (client tracking, broadcast mode, on the revision keys' prefix) whenever a
 * revision key changes or vanishes, on a connection of its own; a revision
 * confirmed by a limiter call stays confirmed until such a message names it.
 * While that connection is down nothing is confirmed (every request asks
 * Redis), and when it comes back every confirmation is dropped, since
 * messages may have been missed meanwhile.
 */
export class RevisionWatch {
  private readonly confirmed = new Map<string, number>();
  private readonly seqs = new Map<string, number>();
  private epoch = 0;
  private active = false;
  private arming: Promise<void> = Promise.resolve();
  private readonly connection: Redis;

  constructor(
    redis: Redis,
    private readonly logger: Logger,
  ) {
    // RESP2: invalidations then arrive as messages on a subscribed channel, which ioredis delivers.
    this.connection = redis.duplicate({ protocol: 2, autoResubscribe: false, lazyConnect: true });
    this.connection.on('ready', () => {
      this.arming = this.arm();
    });
    this.connection.on('close', () => this.lost());
    this.connection.on('error', () => this.lost());
    this.connection.on('messageBuffer', (channel: Buffer, message: unknown) => {
      if (channel.toString() !== INVALIDATE) return;
      // A null message: Redis flushed its keys, every revision may have changed.
      if (!Array.isArray(message)) return this.reset();
      for (const key of message as Buffer[]) this.invalidate(key.toString());
    });
  }

  /** Connects and starts watching; with Redis away it keeps trying, and until then nothing is confirmed. */
  async start(): Promise<void> {
    await this.connection.connect().catch((err: unknown) => this.logger.warn({ event: 'revision_watch_unavailable', err }));
    await this.arming;
  }

  /** Whether revision changes are being received (else every request asks Redis). */
  get watching(): boolean {
    return this.active;
  }

  stop(): void {
    this.lost();
    this.connection.disconnect();
  }

  /** Whether `revision` is known current for the key, with no change announced since it was read. */
  current(revisionKey: string, revision: number): boolean {
    return this.active && this.confirmed.get(revisionKey) === revision;
  }

  /** Taken before a limiter call reads the revision key. */
  token(revisionKey: string): WatchToken {
    return { epoch: this.epoch, seq: this.seqs.get(revisionKey) ?? 0 };
  }

  /** After the call found `revision` current: confirmed, unless a change may have come meanwhile. */
  confirm(revisionKey: string, revision: number, token: WatchToken): void {
    if (!this.active || token.epoch !== this.epoch || token.seq !== (this.seqs.get(revisionKey) ?? 0)) return;
    this.confirmed.set(revisionKey, revision);
  }

  /** After a call found the revision stale. */
  forget(revisionKey: string): void {
    this.confirmed.delete(revisionKey);
  }

  private async arm(): Promise<void> {
    try {
      const id = await this.connection.client('ID');
      await this.connection.call('CLIENT', 'TRACKING', 'ON', 'REDIRECT', String(id), 'BCAST', 'PREFIX', REVISION_PREFIX);
      await this.connection.subscribe(INVALIDATE);
      this.reset();
      this.active = true;
    } catch (err) {
      this.logger.warn({ event: 'revision_watch_unavailable', err });
      this.lost();
    }
  }

  private invalidate(key: string): void {
    this.seqs.set(key, (this.seqs.get(key) ?? 0) + 1);
    this.confirmed.delete(key);
    // Counts only need to differ while a call is in flight; bounded by the projects seen.
    if (this.seqs.size > 100_000) this.reset();
  }

  private reset(): void {
    this.epoch++;
    this.confirmed.clear();
    this.seqs.clear();
  }

  private lost(): void {
    if (!this.active) return;
    this.active = false;
    this.reset();
  }
}
