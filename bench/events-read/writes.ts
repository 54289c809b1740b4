import type pg from 'pg';
import type { IngestedEvent } from '../../packages/contracts/src/index.ts';
import { copy, EVENTS_COPY, renderBatch } from '../../services/store/src/event-writer.ts';
import { applySet, type IndexSet } from './index-sets.ts';

const TYPES = ['deployment', 'uptime', 'error', 'metric', 'infrastructure'] as const;
const SEVERITIES = ['info', 'info', 'info', 'warn', 'error', 'critical', undefined] as const;

/**
 * `count` events of now (today's partition) in the store's COPY text, with
 * ids above every loaded one, spread over 100 projects and with the optional
 * fields as often as the loaded events carry them (every partial index pays).
 */
export function renderWrites(count: number, firstId: number): string {
  const now = new Date().toISOString();
  const events: IngestedEvent[] = Array.from({ length: count }, (_, i) => ({
    id: firstId + i,
    project_key: i % 2 === 0 ? 'bench' : `bench-${String(1 + (i % 99)).padStart(2, '0')}`,
    account_id: 1,
    type: TYPES[i % 5]!,
    name: `name-${i % 10}`,
    timestamp: now,
    received_at: now,
    severity: SEVERITIES[(i * 7919) % 7],
    channel: i % 4 === 0 ? undefined : `ch-${(i * 31) % 10}`,
    correlation_id: i % 2 === 0 ? `wf-w${Math.floor(i / 5)}` : undefined,
    source: `host-${(i * 13) % 50}`,
    labels: i % 3 === 0 ? ['prod'] : [],
    attributes: { value: i % 100 },
  }));
  return renderBatch(events).events;
}

/**
 * µs per row of the store's COPY of `rows` into events with `set`'s indexes
 * (inside a transaction rolled back: the table is left as it was). The label
 * rows and counters the store also writes are the same whatever the index
 * set, and are left out.
 */
export async function copyCost(client: pg.ClientBase, current: IndexSet, set: IndexSet, partition: string, rows: string, count: number): Promise<number> {
  await client.query('BEGIN');
  try {
    await applySet(client, current, set, partition);
    const started = performance.now();
    await copy(client as pg.PoolClient, EVENTS_COPY, rows);
    return ((performance.now() - started) * 1000) / count;
  } finally {
    await client.query('ROLLBACK');
  }
}
