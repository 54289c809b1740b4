import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { createServiceRegistry } from '@pulseboard/config';
import type { RelayBacklog } from './relay-backlog.ts';

export interface EngineMetrics {
  registry: Registry;
  evaluated(tilesAffected: number): void;
  changes(count: number): void;
  /** A transaction of the timer (time-driven changes of one partition). */
  timerTransaction(): void;
  dropped(): void;
  /** A batch's oldest event: seconds from the gateway's receipt to the start of its evaluation (Kafka and the fetch loop). */
  batchWaited(seconds: number): void;
  /** A batch from the start of its evaluation to its commit (state, history, outbox, offsets). */
  batchApplied(seconds: number): void;
  relayed(count: number, seconds: number): void;
  /** Reports the relay's backlog, read by `read` at each scrape. */
  watchRelayBacklog(read: () => Promise<RelayBacklog>): void;
  /** A project's rules read again: for an event stamped with a newer revision, a control-topic message, or the poll. */
  rulesReloaded(trigger: 'event' | 'feed' | 'poll', count?: number): void;
}

// Latency stages of one event on its way to a tile change, from 1 ms to 5 s.
const STAGE_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export function createEngineMetrics(): EngineMetrics {
  const registry = createServiceRegistry('rule-engine', new URL('../package.json', import.meta.url));
  const events = new Counter({
    name: 'pulseboard_rule_engine_events_evaluated_total',
    help: 'Events evaluated against their project rules',
    registers: [registry],
  });
  const affected = new Counter({
    name: 'pulseboard_rule_engine_tiles_affected_total',
    help: 'Tiles whose status or value an event changed',
    registers: [registry],
  });
  const changes = new Counter({
    name: 'pulseboard_rule_engine_tile_changes_total',
    help: 'Tile state changes written (events, time and rule changes)',
    registers: [registry],
  });
  const dropped = new Counter({
    name: 'pulseboard_rule_engine_messages_dropped_total',
    help: 'Messages skipped: undecodable, or failing for a reason a retry cannot fix',
    registers: [registry],
  });
  const relayed = new Counter({ name: 'pulseboard_rule_engine_outbox_relayed_total', help: 'Outbox messages sent to Kafka', registers: [registry] });
  const waited = new Histogram({
    name: 'pulseboard_rule_engine_batch_wait_seconds',
    help: "A batch's oldest event, from the gateway's receipt to the start of evaluation",
    buckets: STAGE_BUCKETS,
    registers: [registry],
  });
  const applied = new Histogram({
    name: 'pulseboard_rule_engine_batch_apply_seconds',
    help: 'A batch from the start of evaluation to its commit',
    buckets: STAGE_BUCKETS,
    registers: [registry],
  });
  const relaying = new Histogram({
    name: 'pulseboard_rule_engine_relay_send_seconds',
    help: 'One relay round: read outbox or history rows and send them (marking them sent follows behind)',
    buckets: STAGE_BUCKETS,
    registers: [registry],
  });
  const timerTransactions = new Counter({
    name: 'pulseboard_rule_engine_timer_transactions_total',
    help: 'Transactions of the timer that applies time-driven changes (one per partition with something due)',
    registers: [registry],
  });
  const reloads = new Counter({
    name: 'pulseboard_rule_engine_rules_reloads_total',
    help: 'Projects whose rules were read again, by what told of the change',
    labelNames: ['trigger'],
    registers: [registry],
  });
  return {
    registry,
    rulesReloaded: (trigger, count = 1) => reloads.inc({ trigger }, count),
    evaluated: (n) => {
      events.inc();
      affected.inc(n);
    },
    changes: (n) => changes.inc(n),
    timerTransaction: () => timerTransactions.inc(),
    dropped: () => dropped.inc(),
    batchWaited: (seconds) => waited.observe(seconds),
    batchApplied: (seconds) => applied.observe(seconds),
    relayed: (n, seconds) => {
      relayed.inc(n);
      relaying.observe(seconds);
    },
    watchRelayBacklog(read) {
      new Gauge({
        name: 'pulseboard_rule_engine_relay_backlog',
        help: 'Messages the relay has still to send: rule outcomes in the outbox, tile changes after the history cursors',
        labelNames: ['source'],
        registers: [registry],
        async collect() {
          try {
            const backlog = await read();
            this.set({ source: 'outbox' }, backlog.outbox);
            this.set({ source: 'history' }, backlog.history);
          } catch {
            // Postgres unreachable: no figure this scrape rather than a stale one.
            this.reset();
          }
        },
      });
    },
  };
}
