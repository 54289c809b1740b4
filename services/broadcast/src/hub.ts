/** What the hub hands a connection: one change, its frame built and UTF-8 encoded once for every client. */
export interface ChangeFrame {
  projectKey: string;
  position: number;
  /** The message's bytes, sent as a text frame as they are (ws neither copies nor re-encodes a Buffer). */
  frame: Buffer;
}

export interface Subscriber {
  deliver(change: ChangeFrame): void;
  /** A frame that is not a tile change (tile_added/updated/removed): no position, sent as it is. */
  deliverFrame(projectKey: string, frame: Buffer): void;
}

/**
 * The subscribers of each project. A change from Kafka is wrapped into its
 * message text once (`{"type":"change","change":<the message's own bytes>}`)
 * and UTF-8 bytes once, and those same bytes go to every subscriber:
 * serialised and encoded once per change, not once per client.
 */
export class Hub {
  private readonly byProject = new Map<string, Set<Subscriber>>();

  constructor(private readonly watchers: { first?: (projectKey: string) => void; last?: (projectKey: string) => void } = {}) {}

  add(projectKey: string, subscriber: Subscriber): void {
    let set = this.byProject.get(projectKey);
    if (set === undefined) {
      this.byProject.set(projectKey, (set = new Set()));
      this.watchers.first?.(projectKey);
    }
    set.add(subscriber);
  }

  remove(projectKey: string, subscriber: Subscriber): void {
    const set = this.byProject.get(projectKey);
    if (set === undefined || !set.delete(subscriber)) return;
    if (set.size === 0) {
      this.byProject.delete(projectKey);
      this.watchers.last?.(projectKey);
    }
  }

  /** Sends the same bytes to every subscriber of the project. */
  publishFrame(projectKey: string, frame: Buffer): number {
    const set = this.byProject.get(projectKey);
    if (set === undefined) return 0;
    for (const subscriber of set) subscriber.deliverFrame(projectKey, frame);
    return set.size;
  }

  /** Subscriptions held now (a connection watching two projects holds two). */
  subscriptions(): number {
    let count = 0;
    for (const set of this.byProject.values()) count += set.size;
    return count;
  }

  /** `raw` is the tile-changes message value as it came from Kafka (a TileChange JSON object). */
  publish(projectKey: string, position: number, raw: string): number {
    const set = this.byProject.get(projectKey);
    if (set === undefined) return 0;
    const change: ChangeFrame = { projectKey, position, frame: Buffer.from(`{"type":"change","change":${raw}}`, 'utf8') };
    for (const subscriber of set) subscriber.deliver(change);
    return set.size;
  }
}

/** The frame of a change read from the history (catch-up): the same text a live change gets. */
export function changeFrame(change: { project_key: string; position: number }): ChangeFrame {
  return { projectKey: change.project_key, position: change.position, frame: Buffer.from(`{"type":"change","change":${JSON.stringify(change)}}`, 'utf8') };
}
