import { JsonPoster } from './http-client.ts';

/**
 * Posts events to a gateway's /ingest at a steady rate (keep-alive, many in
 * flight) and notes when each was answered 201, by event id: the start of an
 * end-to-end latency that a later stage (a WebSocket client, a webhook
 * receiver) ends.
 */
export interface IngestRun {
  /** event id → Date.now() when its 201 arrived. */
  answeredAt: Map<number, number>;
  failed: number;
  /** What the failures were: an HTTP status, or `network`. */
  failures: Map<string, number>;
  seconds: number;
}

/** Figures from a run whose input was partly refused would mislead: stop and say why. */
export function assertAllAccepted(run: IngestRun): void {
  if (run.failed > 0)
    throw new Error(
      `/ingest refused ${run.failed} events (${[...run.failures].map(([why, n]) => `${why}: ${n}`).join(', ')}): the figures would not mean what they say`,
    );
}

export async function driveIngest(gateway: string, rate: number, seconds: number, event: (n: number) => { apiKey: string; body: unknown }): Promise<IngestRun> {
  const answeredAt = new Map<number, number>();
  let failed = 0;
  const failures = new Map<string, number>();
  const fail = (why: string) => {
    failed++;
    failures.set(why, (failures.get(why) ?? 0) + 1);
  };
  const inFlight = new Set<Promise<void>>();
  const poster = new JsonPoster();
  const total = Math.round(rate * seconds);
  const started = Date.now();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * rate));
    for (; sent < due; sent++) {
      const { apiKey, body } = event(sent);
      const p = poster
        .post(`${gateway}/ingest`, { authorization: `Bearer ${apiKey}` }, body)
        .then((res) => {
          const at = Date.now();
          const id = res.body.event_id;
          if (res.status === 201 && typeof id === 'number') answeredAt.set(id, at);
          else fail(String(res.status));
        })
        .catch(() => fail('network'))
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  await Promise.all(inFlight);
  poster.close();
  return { answeredAt, failed, failures, seconds: (Date.now() - started) / 1000 };
}

/** p-th percentile of unsorted values (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}
