export interface Figures {
  p50: number;
  p99: number;
  max: number;
  n: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

/** Runs `op` `warmup` times unmeasured, then `n` times one after another, and returns latency figures in ms. */
export async function measure(n: number, warmup: number, op: (i: number) => Promise<unknown>): Promise<Figures> {
  for (let i = 0; i < warmup; i++) await op(i);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await op(warmup + i);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: times[times.length - 1]!, n };
}

export const ms = (value: number) => (Number.isNaN(value) ? '-' : value >= 100 ? value.toFixed(0) : value.toFixed(1));
