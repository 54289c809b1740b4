import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { NotificationOutcome } from '@pulseboard/contracts';
import { nextDelayMs } from './backoff.ts';
import type { NotificationEnv } from './env.ts';
import type { NotificationMetrics } from './metrics.ts';
import { NextPoll } from './next-poll.ts';
import { OpenedSecretsCache } from './opened-secrets.ts';
import { claimDue, markDelivered, markFailed, markRetry, nextDueInMs, type DueDelivery } from './repository.ts';
import type { DeliveryContent, SendResult, Senders } from './senders.ts';

export interface DispatcherDeps {
  env: NotificationEnv;
  pool: Pool;
  logger: Logger;
  metrics: NotificationMetrics;
  senders: Senders;
  /** Where a requested delivery's outcome goes (the gateway waits for it). */
  publishOutcome: (outcome: NotificationOutcome) => Promise<void>;
  /** A delivery that failed for good: the dead-letter topic. */
  deadLetter: (delivery: DueDelivery, error: string) => Promise<void>;
}

/**
 * Sends deliveries. New ones are sent as soon as they are written, already
 * claimed (`sendClaimed`, at most NOTIFY_CONCURRENCY x NOTIFY_WORKERS at once: the consumers
 * wait for room); retries and deliveries whose sender died come from the
 * schedule in Postgres, claimed NOTIFY_CONCURRENCY at a time. The schedule is
 * read when something in it falls due, not on a fixed beat: at the time of a
 * retry this instance scheduled, and after each read at the next due time it
 * holds (no sooner than NOTIFY_POLL_MS, no later than NOTIFY_IDLE_POLL_MS,
 * which bounds how late another instance's orphaned work is picked up). An
 * idle service reads it every NOTIFY_IDLE_POLL_MS instead of every
 * NOTIFY_POLL_MS. A batch's successes are recorded while the next one is
 * sent; a crash before they are recorded sends them once more when their
 * lease ends (the same webhook-id).
 */
export class Dispatcher {
  private readonly nextPoll: NextPoll;
  private running: Promise<void> | undefined;
  /** Results being written, one batch after the other. */
  private recording: Promise<void> = Promise.resolve();
  private again = false;
  private stopped = false;
  /** Deliveries reserved for or being sent by `sendClaimed`, and who waits for room. */
  private direct = 0;
  private readonly roomWaiters: (() => void)[] = [];
  private readonly sending = new Set<Promise<void>>();
  private readonly secrets: OpenedSecretsCache;

  constructor(private readonly deps: DispatcherDeps) {
    this.secrets = new OpenedSecretsCache({ current: deps.env.SECRETS_KEY, previous: deps.env.SECRETS_KEY_PREVIOUS });
    this.nextPoll = new NextPoll(() => this.wake(), { minMs: deps.env.NOTIFY_POLL_MS, maxMs: deps.env.NOTIFY_IDLE_POLL_MS });
  }

  start(): void {
    this.wake();
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    // Several workers: some send while others claim and record (SKIP LOCKED keeps them apart).
    this.running = Promise.all(Array.from({ length: this.deps.env.NOTIFY_WORKERS }, () => this.drain()))
      .then(() => undefined)
      .catch((error: unknown) => this.deps.logger.warn({ event: 'dispatch_failed', err: error }))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        } else void this.planNextRead();
      });
  }

  /** The schedule is drained: read it again when its next delivery falls due (bounded by NextPoll). */
  private async planNextRead(): Promise<void> {
    if (this.stopped) return;
    const dueInMs = await nextDueInMs(this.deps.pool).catch((error: unknown) => {
      this.deps.logger.warn({ event: 'dispatch_next_due_failed', err: error });
      return 0; // read again after NOTIFY_POLL_MS, as before
    });
    this.nextPoll.afterRead(dueInMs);
  }

  /**
   * Waits until `count` more deliveries may be sent at once, and reserves
   * them: a consumer waits here, so its lag (not this process's memory) is
   * the queue, and a lease taken after this wait is not spent waiting.
   */
  async reserve(count: number): Promise<void> {
    const room = this.deps.env.NOTIFY_CONCURRENCY * this.deps.env.NOTIFY_WORKERS;
    while (this.direct > 0 && this.direct + count > room) await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
    this.direct += count;
  }

  release(count: number): void {
    this.direct -= count;
    for (const wake of this.roomWaiters.splice(0)) wake();
  }

  /** Sends deliveries inserted already claimed by this instance, within `reserved` (from `reserve`); their results are recorded like a claimed batch's. */
  sendClaimed(due: DueDelivery[], reserved: number): void {
    const delivered: { id: string; responseStatus: number | null }[] = [];
    const requested: NotificationOutcome[] = [];
    // Room comes back send by send (one slow target does not hold the others' room), the rest at once.
    this.release(reserved - due.length);
    // A tile's transitions to one service go one after the other, in the order they happened (a batch
    // may hold several of a tile); everything else side by side.
    const chains = new Map<string, DueDelivery[]>();
    for (const d of due) {
      const tile = d.kind === 'transition' ? (d.payload as { tile_id?: unknown }).tile_id : undefined;
      const key = tile === undefined ? d.id : `${d.service_id}:${String(tile)}`;
      chains.set(key, [...(chains.get(key) ?? []), d]);
    }
    const sendChain = async (chain: DueDelivery[]) => {
      chain.sort((a, b) => transitionPosition(a) - transitionPosition(b));
      for (const d of chain) await this.attempt(d, delivered, requested).finally(() => this.release(1));
    };
    const run = Promise.all([...chains.values()].map(sendChain))
      .then(() => {
        this.recording = this.recording.then(() => this.record(delivered, requested));
      })
      .catch((error: unknown) => this.deps.logger.warn({ event: 'dispatch_failed', err: error }))
      .finally(() => this.sending.delete(run));
    this.sending.add(run);
  }

  private async drain(): Promise<void> {
    const { env, pool } = this.deps;
    for (;;) {
      if (this.stopped) return;
      const due = await claimDue(pool, env.NOTIFY_CONCURRENCY, env.NOTIFY_LEASE_MS);
      if (due.length === 0) return;
      const delivered: { id: string; responseStatus: number | null }[] = [];
      const requested: NotificationOutcome[] = [];
      await Promise.all(due.map((d) => this.attempt(d, delivered, requested)));
      // Successes of the batch in one statement, then the outcomes the API waits for: recorded
      // behind the next claim instead of before it (still under the lease, so nothing is claimed twice).
      this.recording = this.recording.then(() => this.record(delivered, requested));
    }
  }

  private async record(delivered: { id: string; responseStatus: number | null }[], requested: NotificationOutcome[]): Promise<void> {
    await markDelivered(this.deps.pool, delivered).catch((error: unknown) =>
      this.deps.logger.warn({ event: 'delivered_not_recorded', deliveries: delivered.length, err: error }),
    );
    for (const outcome of requested)
      await this.deps
        .publishOutcome(outcome)
        .catch((error: unknown) => this.deps.logger.warn({ event: 'outcome_not_published', delivery_id: outcome.delivery_id, err: error }));
  }

  private async attempt(d: DueDelivery, delivered: { id: string; responseStatus: number | null }[], requested: NotificationOutcome[]): Promise<void> {
    const { env, pool, logger, metrics } = this.deps;
    const attempts = d.attempts + 1;
    let result: SendResult;
    if (d.service_kind === null) {
      result = { ok: false, status: null, retryable: false, error: 'the notification service was deleted' };
    } else {
      // Opened once per service and sealed text (opened-secrets.ts), not once per delivery.
      const secret = this.secrets.open(Number(d.service_id), d.secrets);
      const content = { kind: d.kind, ...d.payload } as DeliveryContent;
      const started = performance.now();
      result = await this.deps.senders.send({ id: d.id, serviceName: d.service_name ?? '', type: d.service_kind, config: d.config ?? {}, content }, secret);
      metrics.sendSeconds.observe({ type: d.service_kind }, (performance.now() - started) / 1000);
    }
    let status: NotificationOutcome['status'];
    if (result.ok) {
      delivered.push({ id: d.id, responseStatus: result.status });
      status = 'delivered';
    } else {
      const delay = nextDelayMs(attempts, { firstMs: env.NOTIFY_FIRST_RETRY_MS, maxMs: env.NOTIFY_MAX_BACKOFF_MS, retryAfterMs: result.retryAfterMs });
      let givesUp = !result.retryable || Date.now() + delay > d.created_at.getTime() + env.NOTIFY_RETRY_FOR_MS;
      // Given up only once its dead letter is written (acks=all): were the log row marked first, a
      // crash or a broker outage in between would lose the dead letter for good. Without one, the
      // delivery stays scheduled and the next try ends the same way or delivers.
      if (givesUp) {
        const parked = await this.deps.deadLetter(d, result.error).then(
          () => true,
          (error: unknown) => (logger.warn({ event: 'dead_letter_failed', delivery_id: d.id, err: error }), false),
        );
        if (!parked) givesUp = false;
      }
      if (givesUp) {
        await markFailed(pool, d.id, result.error, result.status);
        status = 'failed';
      } else {
        await markRetry(pool, d.id, result.error, result.status, delay);
        // This instance reads the schedule when the retry falls due (others within NOTIFY_IDLE_POLL_MS, if it dies).
        this.nextPoll.planAt(Date.now() + delay);
        status = 'pending';
      }
      logger.info({
        event: givesUp ? 'delivery_failed' : 'delivery_retry_scheduled',
        delivery_id: d.id,
        attempts,
        error: result.error,
        detail: result.detail,
        retry_in_ms: givesUp ? undefined : delay,
      });
    }
    metrics.attempts.inc({ outcome: status });
    // Requests from the API hear after the first try, and again when a later try settles them.
    if (d.kind !== 'transition' && (attempts === 1 || status !== 'pending'))
      requested.push({ request_id: d.id, delivery_id: d.id, status, attempts, response_status: result.status });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.nextPoll.stop();
    await this.running;
    await Promise.all(this.sending);
    await this.recording;
  }
}

/** A transition delivery's id is `dlv_<position>_<service>`: the position orders a tile's changes. */
function transitionPosition(d: DueDelivery): number {
  return Number(d.id.split('_')[1] ?? 0);
}
