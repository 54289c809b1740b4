/**
 * One way for a service to hold control-plane data that changes: a value per
 * key, each carrying the revision it was read at. A change is learnt of by
 * `offer(key, revision)`, fed by the control topic and by revisions stamped on
 * messages; one slow safety poll covers a message that never came. Loads of a
 * key are single-flight, and a newer revision always wins: a load that returns
 * an older revision than the one held (a slow read overtaken by a faster one)
 * never replaces it.
 */

/** The safety poll's default period: the feed and stamped revisions carry every change; the poll only bounds a lost one. */
export const REVISION_CACHE_POLL_MS = 30_000;

export type RevisionTrigger = 'miss' | 'offer' | 'poll';

/** Counters a service registers as `pulseboard_revision_cache_hits_total{cache}` and `pulseboard_revision_cache_reloads_total{cache,trigger}`. */
export interface RevisionCacheMetrics {
  hit(): void;
  reloaded(trigger: RevisionTrigger): void;
}

/** A value read, and the older copy it replaced (absent: nothing was replaced). */
export interface Read<V> {
  value: V;
  replaced?: V;
}

export interface RevisionCacheOptions<K, V> {
  /** Reads the key's current value from its owner. */
  load(key: K): Promise<V>;
  revisionOf(value: V): number;
  /** The owner's current revision of each key, cheaper than loading: the safety poll reloads only the keys that moved. Without it the poll reloads every held key. */
  revisions?(keys: K[]): Promise<Map<K, number>>;
  /** Called when a newer value replaces the one held (not on the first load of a key). */
  onChange?(key: K, next: V, previous: V): void;
  /** Period of the safety poll in ms; 0 turns it off. Default {@link REVISION_CACHE_POLL_MS}. */
  pollMs?: number;
  metrics?: RevisionCacheMetrics;
  /** A poll that failed (the owner unreachable): the held values stay and the next poll tries again. */
  onPollError?(error: unknown): void;
}

// How many times `atLeast` reads again when a load that was already under way returns an older revision than asked for.
const AT_LEAST_ATTEMPTS = 3;

export class RevisionCache<K, V> {
  private readonly held = new Map<K, V>();
  private readonly flights = new Map<K, Promise<Read<V>>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: RevisionCacheOptions<K, V>) {}

  /** Starts the safety poll (unless turned off). */
  start(): void {
    const period = this.options.pollMs ?? REVISION_CACHE_POLL_MS;
    if (period <= 0 || this.timer !== undefined) return;
    this.timer = setInterval(() => {
      this.poll().catch((error: unknown) => this.options.onPollError?.(error));
    }, period);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The held value, whatever its revision. */
  cached(key: K): V | undefined {
    return this.held.get(key);
  }

  keys(): K[] {
    return [...this.held.keys()];
  }

  /** The held value, or a load of it on a miss (synchronous on a hit, so a hot path need not await). */
  get(key: K): V | Promise<V> {
    const value = this.held.get(key);
    if (value === undefined) return this.load(key, 'miss').then((read) => read.value);
    this.options.metrics?.hit();
    return value;
  }

  /**
   * The value at `revision` or newer: from memory when the held copy is that
   * new, else read again. A load already under way may have read before that
   * revision committed; then it is read once more. After that the newest read
   * is returned (the owner does not have the revision, e.g. a restored database).
   */
  async atLeast(key: K, revision: number, trigger: RevisionTrigger = 'offer'): Promise<V> {
    return (await this.atLeastChange(key, revision, trigger)).value;
  }

  /**
   * `atLeast`, also saying which copy the reads it made or joined replaced
   * (the oldest, when several did): for a user that moves its own state from
   * the old value to the new one. Every caller that joined that read is told.
   */
  async atLeastChange(key: K, revision: number, trigger: RevisionTrigger = 'offer'): Promise<Read<V>> {
    let replaced: V | undefined;
    for (let attempt = 0; attempt < AT_LEAST_ATTEMPTS; attempt++) {
      const value = this.held.get(key);
      if (value !== undefined && this.options.revisionOf(value) >= revision) {
        if (attempt === 0) this.options.metrics?.hit();
        return replaced === undefined ? { value } : { value, replaced };
      }
      const read = await this.load(key, value === undefined ? 'miss' : trigger);
      replaced ??= read.replaced;
    }
    const value = this.held.get(key)!;
    return replaced === undefined ? { value } : { value, replaced };
  }

  /**
   * A revision learnt of (the control feed, a stamped message): reloads a held
   * key whose copy is older. A key not held is not loaded; its first use will.
   */
  async offer(key: K, revision: number): Promise<void> {
    const value = this.held.get(key);
    if (value === undefined || this.options.revisionOf(value) >= revision) return;
    await this.atLeast(key, revision, 'offer');
  }

  /** Drops a key (its owner deleted it); a later use loads it again. */
  forget(key: K): void {
    this.held.delete(key);
  }

  /** The safety net: reloads the held keys whose revision moved at the owner. */
  async poll(): Promise<void> {
    const keys = this.keys();
    if (keys.length === 0) return;
    const { revisions } = this.options;
    if (revisions === undefined) {
      await Promise.all(keys.map((key) => this.load(key, 'poll')));
      return;
    }
    const current = await revisions(keys);
    const moved = keys.filter((key) => {
      const value = this.held.get(key);
      return value !== undefined && this.options.revisionOf(value) !== (current.get(key) ?? 0);
    });
    await Promise.all(moved.map((key) => this.load(key, 'poll')));
  }

  /** Reads the key, joining a read already under way; returns the newest value held once it ends. */
  private load(key: K, trigger: RevisionTrigger): Promise<Read<V>> {
    const flight = this.flights.get(key);
    if (flight !== undefined) return flight;
    const started = this.read(key, trigger).finally(() => this.flights.delete(key));
    this.flights.set(key, started);
    return started;
  }

  private async read(key: K, trigger: RevisionTrigger): Promise<Read<V>> {
    const loaded = await this.options.load(key);
    this.options.metrics?.reloaded(trigger);
    const previous = this.held.get(key);
    if (previous === undefined) {
      this.held.set(key, loaded);
      return { value: loaded };
    }
    // Newer wins: an older read never replaces what is held.
    if (this.options.revisionOf(loaded) <= this.options.revisionOf(previous)) return { value: previous };
    this.held.set(key, loaded);
    this.options.onChange?.(key, loaded, previous);
    return { value: loaded, replaced: previous };
  }
}
