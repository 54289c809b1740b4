/**
 * What the demo traffic generator (deploy/demo-traffic.ts) sends, and the
 * limits deploy/seed-demo.ts gives the demo project so that it is never
 * refused: the spec's defaults (100 events a minute, 1,000 requests an hour,
 * 10,000 events a month) would refuse it within minutes, and the tiles would
 * then stand still. The schedule is counted in demo seconds; its events go out
 * in one batch (POST /api/v1/webhooks) every BATCH_SECONDS, which keeps the
 * requests an hour well under the project's, the account's and the global
 * hourly limits. packages/rules/src/demo-schedule.test.ts counts a month of it
 * against these limits.
 */

export type DemoEvent = { type: string; name: string; source?: string; severity?: string; attributes?: Record<string, unknown> };

/** Demo seconds gathered into one request (the first round, second 0, goes out alone and at once). */
export const BATCH_SECONDS = 5;

/**
 * The demo project's own limits: about twice what its schedule needs (under 130
 * events in any minute, 720 requests an hour, under 6 million events in 31
 * days), leaving room for a first event sent by hand.
 */
export const DEMO_LIMITS = { burst_limit: 300, hourly_request_limit: 2000, monthly_quota: 12_000_000 } as const;

/** Whether the events gathered up to demo second `s` (included) go out now. */
export function flushesAfter(s: number): boolean {
  return s === 0 || s % BATCH_SECONDS === 0;
}

/**
 * A fresh schedule: `eventsAt(s)` gives the events of demo second s, to be asked
 * for in order 0, 1, 2, ... (it carries the CPU's wander and the alert's state).
 * Seeded (mulberry32): the same demo every time.
 */
export function demoSchedule(): (s: number) => DemoEvent[] {
  let seed = 28;
  const random = () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  let cpu = 55;
  let alertFiring = false;

  /** The events of demo second `s` (0 is the first round: one of everything). */
  return function eventsAt(s: number): DemoEvent[] {
    const events: DemoEvent[] = [];
    // CPU wanders, with a spike now and then: ok, warning (80) and critical (95) within a minute.
    cpu = Math.min(99, Math.max(20, cpu + (random() - 0.45) * 12));
    if (s % 40 >= 25 && s % 40 < 33) cpu = Math.max(cpu, 82 + random() * 16);
    events.push({ type: 'metric', name: 'cpu_usage', source: 'web-1', attributes: { value: Math.round(cpu * 10) / 10, unit: 'percent', host: 'web-1' } });
    if (s % 2 === 0)
      events.push({
        type: 'metric',
        name: 'memory_usage',
        source: 'web-1',
        attributes: { value: Math.round(60 + random() * 25), unit: 'percent', host: 'web-1' },
      });
    if (s % 5 === 0) {
      const up = s === 0 || random() > 0.15;
      events.push({
        type: 'uptime',
        name: 'http_check',
        source: 'checker',
        severity: up ? 'info' : 'error',
        attributes: { is_up: up, status_code: up ? 200 : 503, latency_ms: Math.round(40 + random() * 200), url: 'https://api.example.com/health' },
      });
    }
    // A deployment every 20 s, from GitHub every other time; one in five fails.
    const round = Math.floor(s / 20);
    const source = round % 2 === 0 ? 'github' : 'ci';
    const version = `1.${round}.0`;
    if (s % 20 === 0) events.push({ type: 'deployment', name: 'deploy_started', source, attributes: { version, environment: 'production' } });
    if (s % 20 === 8)
      events.push({
        type: 'deployment',
        name: random() < 0.2 ? 'deploy_failed' : 'deploy_finished',
        source,
        attributes: { version, environment: 'production' },
      });
    // Alertmanager's HighLatency alert fires and resolves every 30 s.
    if (s % 30 === 0) {
      alertFiring = !alertFiring;
      events.push({
        type: 'error',
        name: 'alert',
        source: 'alertmanager',
        severity: alertFiring ? 'critical' : 'info',
        attributes: { resolved: !alertFiring, alertname: 'HighLatency' },
      });
    }
    // The odd error: about one in eight seconds.
    if (s === 0 || random() < 0.125)
      events.push({
        type: 'error',
        name: 'exception',
        source: 'web-1',
        severity: 'error',
        attributes: { message: 'TimeoutError: upstream took too long', route: '/api/orders' },
      });
    return events;
  };
}
