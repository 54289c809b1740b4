/**
 * The rule engine's latency stages (its /metrics histograms), between two
 * scrapes: how long a batch's oldest event waited before evaluation, how long
 * a batch took to commit, and how long one relay round took. Says where the
 * ingest-to-tile-change time goes.
 */
const STAGES = {
  pulseboard_rule_engine_batch_wait_seconds: 'gateway receipt to evaluation (oldest event of a batch)',
  pulseboard_rule_engine_batch_apply_seconds: 'evaluation to commit (per batch)',
  pulseboard_rule_engine_relay_send_seconds: 'relay round: read, send (marked sent behind it)',
} as const;

type Scrape = Map<string, number>;

export async function scrapeEngine(url: string): Promise<Scrape> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const values: Scrape = new Map();
  for (const line of text.split('\n')) {
    const match = /^(pulseboard_rule_engine_\w+_seconds_(?:bucket|sum|count))(\{le="([^"]+)"\})?\s+(\S+)$/.exec(line);
    if (match) values.set(`${match[1]}${match[3] === undefined ? '' : `|${match[3]}`}`, Number(match[4]));
  }
  return values;
}

/** One line per stage: observations, mean, and the bucket bounds the p50 and p99 fall under. */
export function stageLines(before: Scrape, after: Scrape): string[] {
  const delta = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
  return Object.entries(STAGES).map(([name, what]) => {
    const count = delta(`${name}_count`);
    if (count === 0) return `  ${what}: none`;
    const bounds = [...after.keys()].filter((k) => k.startsWith(`${name}_bucket|`)).map((k) => k.split('|')[1]!);
    const under = (q: number) => bounds.find((le) => delta(`${name}_bucket|${le}`) >= q * count) ?? '+Inf';
    const ms = (le: string) => (le === '+Inf' ? '> 5000' : `<= ${Number(le) * 1000}`);
    return `  ${what}: ${count} observed, mean ${((delta(`${name}_sum`) / count) * 1000).toFixed(1)} ms, p50 ${ms(under(0.5))} ms, p99 ${ms(under(0.99))} ms`;
  });
}
