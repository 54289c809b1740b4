import type { Pool } from 'pg';
import pino from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { EndOffsetsReader, TopicEnds } from '@pulseboard/kafka-kit';
import { FreshnessReporter } from './freshness.ts';

/** A reporter over a fake pool that keeps each statement's parameters, and end offsets the test sets. */
function reporter() {
  const writes: unknown[][] = [];
  const pool = { query: async (_text: string, params: unknown[]) => void writes.push(params) } as unknown as Pool;
  let ends: TopicEnds | undefined;
  const reader: EndOffsetsReader = { read: async () => ends, stop: async () => undefined };
  const registry = new Registry();
  const r = new FreshnessReporter({ pool, topic: 'events', ends: reader, logger: pino({ level: 'silent' }), registry });
  const setEnds = (at: number, highs: Record<number, number>) =>
    (ends = { at, partitions: new Map(Object.entries(highs).map(([p, high]) => [Number(p), { low: 0n, high: BigInt(high) }])) });
  const gauge = async () =>
    Object.fromEntries(
      ((await registry.getSingleMetric('pulseboard_rule_engine_tiles_behind_seconds')!.get()).values ?? []).map((v) => [v.labels.partition, v.value]),
    );
  return { r, writes, setEnds, gauge, clearEnds: () => (ends = undefined) };
}

describe('FreshnessReporter', () => {
  it('writes applied_through as the newest applied receipt while events wait, and the read time once nothing waits', async () => {
    const { r, writes, setEnds } = reporter();
    const claim = { epoch: 3, nextOffset: 10n };
    r.claimed(0, claim);
    r.applied(0, Date.parse('2026-11-28T12:00:00Z'));
    setEnds(Date.parse('2026-11-28T12:00:05Z'), { 0: 12 });
    await r.report();
    expect(writes.at(-1)).toEqual(['events', [0], ['10'], ['2026-11-28T12:00:00.000Z'], [3]]);
    // Caught up (the consumer moved the claim's offset): complete through the moment the end offsets were asked for.
    claim.nextOffset = 12n;
    setEnds(Date.parse('2026-11-28T12:10:00Z'), { 0: 12 });
    await r.report();
    expect(writes.at(-1)).toEqual(['events', [0], ['12'], ['2026-11-28T12:10:00.000Z'], [3]]);
  });

  it('writes no time before it knows one, nothing once released, and keeps its caught-up time while Kafka does not answer', async () => {
    const { r, writes, setEnds, clearEnds } = reporter();
    r.claimed(1, { epoch: 1, nextOffset: -1n });
    setEnds(1000, { 1: 5 });
    await r.report();
    expect(writes.at(-1)).toEqual(['events', [1], ['-1'], [null], [1]]);
    setEnds(2000, { 1: 0 });
    await r.report();
    expect(writes.at(-1)?.[3]).toEqual([new Date(2000).toISOString()]);
    clearEnds();
    await r.report();
    expect(writes.at(-1)?.[3]).toEqual([new Date(2000).toISOString()]);
    r.released(1);
    const before = writes.length;
    await r.report();
    expect(writes).toHaveLength(before);
  });

  it('exports 0 for a caught-up partition and the age of applied_through for one with events waiting, per owned partition', async () => {
    const { r, setEnds, gauge } = reporter();
    r.claimed(0, { epoch: 1, nextOffset: 7n });
    r.claimed(2, { epoch: 1, nextOffset: 3n });
    r.applied(2, Date.now() - 42_000);
    setEnds(Date.now(), { 0: 7, 2: 9 });
    const values = await gauge();
    expect(values['0']).toBe(0);
    expect(values['2']).toBeGreaterThanOrEqual(42);
    expect(values['2']).toBeLessThan(44);
    expect(Object.keys(values).sort()).toEqual(['0', '2']);
  });
});
