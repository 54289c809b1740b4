/**
 * Offers events at a steady rate: single events to /ingest, or batches of
 * 100 to /api/v1/webhooks (which wait for the rule engine's tiles_affected).
 * Notes for each event when its 201 arrived, and each request's latency.
 */
import { JsonPoster } from '../shared/http-client.ts';
import { eventBody, type Project } from './workload.ts';

export interface Driven {
  /** event id → Date.now() at its answer. */
  answered: Map<number, number>;
  /** Request latencies, ms. */
  latencies: number[];
  /** status (or `network`) → count, for answers other than 201. */
  other: Map<string, number>;
  events: number;
  seconds: number;
}

export class Driver {
  private readonly counters: number[];
  private readonly poster = new JsonPoster(512);
  private turn = 0;

  constructor(
    private readonly gateway: string,
    private readonly projects: Project[],
  ) {
    this.counters = projects.map(() => 0);
  }

  private nextProject(): number {
    return this.turn++ % this.projects.length;
  }

  private event(p: number): Record<string, unknown> {
    return eventBody(this.projects[p]!.projectKey, this.counters[p]!++);
  }

  /** `batch` 1: POST /ingest; more: POST /api/v1/webhooks with that many events, all of one project. */
  async run(rate: number, seconds: number, batch: number): Promise<Driven> {
    const answered = new Map<number, number>();
    const latencies: number[] = [];
    const other = new Map<string, number>();
    const note = (why: string): void => void other.set(why, (other.get(why) ?? 0) + 1);
    const inFlight = new Set<Promise<void>>();
    const requests = Math.round((rate / batch) * seconds);
    const started = Date.now();
    let sent = 0;
    while (sent < requests) {
      const due = Math.min(requests, Math.floor(((Date.now() - started) / 1000) * (rate / batch)));
      for (; sent < due; sent++) {
        const p = this.nextProject();
        const project = this.projects[p]!;
        const body = batch === 1 ? this.event(p) : { events: Array.from({ length: batch }, () => this.event(p)) };
        const at = Date.now();
        const request = this.poster
          .post(`${this.gateway}${batch === 1 ? '/ingest' : '/api/v1/webhooks'}`, { authorization: `Bearer ${project.apiKey}` }, body)
          .then((res) => {
            const now = Date.now();
            latencies.push(now - at);
            if (res.status !== 201) note(String(res.status));
            if (res.status !== 201 && res.status !== 202) return;
            if (batch === 1) answered.set(res.body.event_id as number, now);
            else for (const e of res.body.events as { event_id: string }[]) answered.set(Number(e.event_id.slice(4)), now);
          })
          .catch(() => note('network'))
          .finally(() => inFlight.delete(request));
        inFlight.add(request);
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    await Promise.all(inFlight);
    return { answered, latencies, other, events: answered.size, seconds: (Date.now() - started) / 1000 };
  }

  /**
   * Single events to /ingest as fast as `lanes` requests in flight allow, for
   * `seconds`: each lane sends its next request when the last is answered.
   * What the run sustains this way is the capacity of the stack and the bench
   * together on this machine's cores.
   */
  async saturate(lanes: number, seconds: number): Promise<Driven> {
    const answered = new Map<number, number>();
    const latencies: number[] = [];
    const other = new Map<string, number>();
    const started = Date.now();
    const until = started + seconds * 1000;
    const lane = async (): Promise<void> => {
      while (Date.now() < until) {
        const p = this.nextProject();
        const at = Date.now();
        try {
          const res = await this.poster.post(`${this.gateway}/ingest`, { authorization: `Bearer ${this.projects[p]!.apiKey}` }, this.event(p));
          const now = Date.now();
          latencies.push(now - at);
          if (res.status === 201) answered.set(res.body.event_id as number, now);
          else other.set(String(res.status), (other.get(String(res.status)) ?? 0) + 1);
        } catch {
          other.set('network', (other.get('network') ?? 0) + 1);
        }
      }
    };
    await Promise.all(Array.from({ length: lanes }, lane));
    return { answered, latencies, other, events: answered.size, seconds: (Date.now() - started) / 1000 };
  }

  close(): void {
    this.poster.close();
  }
}
