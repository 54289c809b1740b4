/**
 * bench:scale-out's load: single events to /ingest, spread over the gateways
 * in turn, at a steady rate for the other projects (round robin) and, in the
 * hot phase, as many again for the hot project (half of all events).
 *
 * Events are deterministic: a project's n-th event is bench:pipeline's
 * `eventBody(project, n)` stamped `base + n` ms. Requests overlap, so two
 * events of a project can reach Kafka in either order, in one run as in
 * another; threshold, status_map and up_down tiles take the newest event by
 * its own time (packages/rules/src/evaluator.ts: an older one is ignored), so
 * with distinct, increasing stamps their final state depends on the events
 * sent, not on the order they arrived in. The stamps stay behind the clock
 * (the engine caps an event's time at its now).
 */
import { JsonPoster } from '../shared/http-client.ts';
import { eventBody, type Project } from '../pipeline/workload.ts';

export interface Driven {
  /** event id → [Date.now() at its 201, project index]. */
  answered: Map<number, [number, number]>;
  other: Map<string, number>;
  events: number;
}

export class ScaleDriver {
  private readonly counters: number[];
  private readonly poster = new JsonPoster(256);
  private turn = 0;
  private gatewayTurn = 0;

  /** `<project index>:<n>` of every event not answered 201 (refused, or lost on the network). */
  readonly refused = new Set<string>();

  /**
   * Project 0 is the hot one. `skip`: events another run refused, left out
   * here (their place in the sequence kept), so both runs hold the same events.
   */
  constructor(
    private readonly gateways: string[],
    private readonly projects: Project[],
    private readonly base: number,
    private readonly skip: ReadonlySet<string> = new Set(),
  ) {
    this.counters = projects.map(() => 0);
  }

  /** Events sent so far per project (what a replay must send again). */
  get sent(): readonly number[] {
    return this.counters;
  }

  private otherProject(): number {
    return 1 + (this.turn++ % (this.projects.length - 1));
  }

  /** `othersRate` events/s over the other projects, plus `hotRate` to the hot one, for `seconds`. */
  async run(othersRate: number, hotRate: number, seconds: number): Promise<Driven> {
    const answered = new Map<number, [number, number]>();
    const other = new Map<string, number>();
    const note = (why: string): void => void other.set(why, (other.get(why) ?? 0) + 1);
    const inFlight = new Set<Promise<void>>();
    const started = Date.now();
    const lanes = [
      { rate: othersRate, sent: 0, pick: () => this.otherProject() },
      { rate: hotRate, sent: 0, pick: () => 0 },
    ].filter((lane) => lane.rate > 0);
    const send = (p: number) => {
      const project = this.projects[p]!;
      const n = this.counters[p]!++;
      if (this.skip.has(`${p}:${n}`)) return;
      const body = { ...eventBody(project.projectKey, n), timestamp: new Date(this.base + n).toISOString() };
      const gateway = this.gateways[this.gatewayTurn++ % this.gateways.length]!;
      const request = this.poster
        .post(`${gateway}/ingest`, { authorization: `Bearer ${project.apiKey}` }, body)
        .then((res) => {
          if (res.status !== 201) {
            this.refused.add(`${p}:${n}`);
            return note(String(res.status));
          }
          answered.set(res.body.event_id as number, [Date.now(), p]);
        })
        .catch(() => {
          this.refused.add(`${p}:${n}`);
          note('network');
        })
        .finally(() => inFlight.delete(request));
      inFlight.add(request);
    };
    for (;;) {
      const elapsed = (Date.now() - started) / 1000;
      let pending = false;
      for (const lane of lanes) {
        const total = Math.round(lane.rate * seconds);
        const due = Math.min(total, Math.floor(elapsed * lane.rate));
        for (; lane.sent < due; lane.sent++) send(lane.pick());
        if (lane.sent < total) pending = true;
      }
      if (!pending) break;
      await new Promise((r) => setTimeout(r, 2));
    }
    await Promise.all(inFlight);
    return { answered, other, events: answered.size };
  }

  close(): void {
    this.poster.close();
  }
}
