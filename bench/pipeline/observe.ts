/**
 * Where bench:pipeline sees each event arrive: its Kafka position (a reader
 * of the events topic), stored (the store's offsets in Postgres, polled), its
 * tile change on Kafka (the record's create time), the WebSocket frame (one
 * client per project) and the webhook notification (a local receiver).
 */
import { once } from 'node:events';
import http from 'node:http';
import type { testKafka } from '@pulseboard/test-kit';
import pg from 'pg';
import WebSocket from 'ws';

type Kafka = ReturnType<typeof testKafka>;
import type { Project } from './workload.ts';

const TOPIC_EVENTS = 'pulseboard.events.v1';
const TOPIC_TILE_CHANGES = 'pulseboard.tile-changes.v1';

export interface Arrivals {
  /** event id → when its tile change was written to Kafka (the record's timestamp). */
  change: Map<number, number>;
  ws: Map<number, number>;
  notified: Map<number, number>;
  /** event id → [partition, offset] on the events topic. */
  position: Map<number, [number, number]>;
  /** event id → its record's create time on the events topic (the gateway's produce, just before its 201). */
  produced: Map<number, number>;
}

export class Observer {
  readonly arrivals: Arrivals = { change: new Map(), ws: new Map(), notified: new Map(), position: new Map(), produced: new Map() };
  /** Per partition: successive [time, next_offset] of the store's offsets, as polled. */
  private readonly storedHistory = new Map<number, [number, number][]>();
  private consumers: ReturnType<Kafka['consumer']>[] = [];
  private sockets: WebSocket[] = [];
  private receiver?: http.Server;
  private poller?: NodeJS.Timeout;
  private db?: pg.Pool;
  private stopped = false;
  /** The stored-offsets poll (50 a second) is the bench's own load on Postgres: off while nothing is sent (the idle phase). */
  storedPollPaused = false;
  receiverUrl = '';

  async startReceiver(): Promise<void> {
    this.receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = Date.now();
        try {
          const id = (JSON.parse(Buffer.concat(chunks).toString()) as { data?: { event_id?: number | null } }).data?.event_id;
          if (typeof id === 'number' && !this.arrivals.notified.has(id)) this.arrivals.notified.set(id, at);
        } catch {
          // not ours to judge
        }
        res.end('ok');
      });
    });
    this.receiver.listen(0, '127.0.0.1');
    await once(this.receiver, 'listening');
    this.receiverUrl = `http://127.0.0.1:${(this.receiver.address() as { port: number }).port}`;
  }

  async start(kafka: Kafka, databaseUrl: string, broadcast: string, projects: Project[]): Promise<void> {
    // The observers must cost the broker little (its CPU is measured): a fetch of theirs waits for
    // 1 MB or 250 ms. Neither needs to be timely: one maps ids to offsets, the other reads each
    // change's create time.
    const observing = { minBytes: 1 << 20, maxWaitTimeInMs: 250 };
    // Never committed (each run has groups of its own): kafkajs' autoCommit would send an OffsetCommit after every batch, 40 a second at 100 events/s, load on the measured broker that is the bench's own.
    const events = kafka.consumer({ groupId: `bench-pipeline-events-${Date.now()}`, ...observing });
    await events.connect();
    await events.subscribe({ topic: TOPIC_EVENTS, fromBeginning: false });
    await events.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        for (const m of batch.messages) {
          const id = Number(m.headers?.['pb-event-id']?.toString());
          if (!Number.isFinite(id)) continue;
          this.arrivals.position.set(id, [batch.partition, Number(m.offset)]);
          this.arrivals.produced.set(id, Number(m.timestamp));
        }
      },
    });
    const changes = kafka.consumer({ groupId: `bench-pipeline-changes-${Date.now()}`, ...observing });
    await changes.connect();
    await changes.subscribe({ topic: TOPIC_TILE_CHANGES, fromBeginning: false });
    await changes.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        for (const m of batch.messages) {
          const change = JSON.parse(m.value!.toString()) as { event_id: number | null };
          if (change.event_id !== null && !this.arrivals.change.has(change.event_id)) this.arrivals.change.set(change.event_id, Number(m.timestamp));
        }
      },
    });
    this.consumers = [events, changes];

    this.db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    // Its Postgres stops at the end of the run; an idle client's error then must not end the process.
    this.db.on('error', () => undefined);
    const poll = async () => {
      if (this.storedPollPaused) return;
      const { rows } = await this.db!.query<{ partition: number; next_offset: string }>('SELECT partition, next_offset FROM store_offsets WHERE topic = $1', [
        TOPIC_EVENTS,
      ]);
      const at = Date.now();
      for (const row of rows) {
        const history = this.storedHistory.get(row.partition) ?? [];
        const offset = Number(row.next_offset);
        if (history.length === 0 || history[history.length - 1]![1] !== offset) history.push([at, offset]);
        this.storedHistory.set(row.partition, history);
      }
    };
    const tick = () => {
      if (this.stopped) return;
      this.poller = setTimeout(
        () =>
          void poll()
            .catch(() => undefined)
            .finally(tick),
        20,
      );
    };
    tick();

    for (const project of projects) this.sockets.push(await this.subscribe(broadcast, project));
  }

  /**
   * One WebSocket client subscribed to its project's dashboard. Broadcast may
   * not know a project created a moment ago (it learns of new ones from the
   * control feed, older code from a poll) and then closes or refuses the
   * socket: the client tries again until a deadline, and the run fails with
   * the reason instead of waiting for an answer that will not come.
   */
  private async subscribe(broadcast: string, project: Project, deadlineMs = 90_000): Promise<WebSocket> {
    const giveUpAt = Date.now() + deadlineMs;
    let last = '';
    while (Date.now() < giveUpAt) {
      const socket = new WebSocket(`${broadcast}/ws`, { headers: { authorization: `Bearer ${project.apiKey}` } });
      const outcome = await new Promise<string | undefined>((resolve) => {
        const timer = setTimeout(() => resolve('no answer within 5 s'), 5_000);
        const done = (why: string | undefined) => {
          clearTimeout(timer);
          resolve(why);
        };
        socket.once('error', (error) => done(`error: ${error.message}`));
        socket.once('close', (code, reason) => done(`closed: ${code} ${reason.toString()}`));
        socket.on('message', (data: Buffer) => {
          const message = JSON.parse(data.toString()) as { type: string; change?: { event_id: number | null } };
          if (message.type === 'ready') socket.send(JSON.stringify({ type: 'subscribe', project: project.projectKey }));
          else if (message.type === 'subscribed') done(undefined);
          else if (message.type === 'error') done(`refused: ${data.toString()}`);
          else if (message.type === 'change') {
            const id = message.change!.event_id;
            if (id !== null && !this.arrivals.ws.has(id)) this.arrivals.ws.set(id, Date.now());
          }
        });
      });
      if (outcome === undefined) return socket;
      last = outcome;
      socket.removeAllListeners('close');
      socket.terminate();
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`WebSocket client of ${project.projectKey} not subscribed within ${deadlineMs / 1000} s (last: ${last})`);
  }

  /** When the store's offsets first passed the event (undefined if not yet seen). */
  storedAt(id: number): number | undefined {
    const position = this.arrivals.position.get(id);
    if (position === undefined) return undefined;
    const history = this.storedHistory.get(position[0]);
    if (history === undefined) return undefined;
    let lo = 0;
    let hi = history.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (history[mid]![1] > position[1]) hi = mid;
      else lo = mid + 1;
    }
    return history[lo]?.[0];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.poller);
    for (const socket of this.sockets) socket.terminate();
    await Promise.all(this.consumers.map((c) => c.disconnect().catch(() => undefined)));
    this.receiver?.close();
    await this.db?.end();
  }
}
