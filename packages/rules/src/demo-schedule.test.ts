import { describe, expect, it } from 'vitest';
import { MAX_BATCH_EVENTS } from '@pulseboard/contracts';
import { DEMO_LIMITS, demoSchedule, flushesAfter } from '../../../deploy/demo-schedule.ts';

/** The requests of `seconds` demo seconds as deploy/demo-traffic.ts sends them: when (demo second) and how many events. */
function requests(seconds: number): { at: number; events: number }[] {
  const eventsAt = demoSchedule();
  const out: { at: number; events: number }[] = [];
  let pending = 0;
  for (let s = 0; s < seconds; s++) {
    pending += eventsAt(s).length;
    if (flushesAfter(s)) {
      out.push({ at: s, events: pending });
      pending = 0;
    }
  }
  return out;
}

/** The most `weigh` adds up to over requests within any `width` seconds: at least any fixed window of that width, wherever it starts. */
function busiest(list: { at: number; events: number }[], width: number, weigh: (r: { events: number }) => number): number {
  let most = 0;
  let sum = 0;
  let from = 0;
  for (const r of list) {
    sum += weigh(r);
    while (list[from]!.at <= r.at - width) sum -= weigh(list[from++]!);
    most = Math.max(most, sum);
  }
  return most;
}

/**
 * The demo's schedule against the limits seed-demo.ts gives the demo project
 * (the gateway's windows are fixed; a sliding window bounds them wherever the
 * demo starts within a minute or an hour). The integration test runs the same
 * schedule through a real gateway (tests/e2e/demo-traffic.integration.test.ts).
 */
describe('the demo traffic schedule (deploy/demo-schedule.ts)', () => {
  const hour = requests(3600);
  const month = requests(31 * 86400);

  it('stays within the demo project burst limit in every minute, with room for a first event by hand', () => {
    const events = busiest(hour, 60, (r) => r.events);
    expect(events).toBeLessThanOrEqual(DEMO_LIMITS.burst_limit / 2);
    // The spec's default (100 events a minute) would refuse it: why the demo project has its own.
    expect(events).toBeGreaterThan(100);
  });

  it("makes at most 1,000 requests in any hour: within the project's, the account's and the global hourly limits", () => {
    const most = busiest(month.slice(0, 3 * 721), 3600, () => 1);
    expect(most).toBeLessThanOrEqual(1000);
    expect(most).toBeLessThanOrEqual(DEMO_LIMITS.hourly_request_limit / 2);
  });

  it('stays within the monthly quota over a 31-day month, and every batch within the batch size', () => {
    const total = month.reduce((sum, r) => sum + r.events, 0);
    expect(total).toBeLessThanOrEqual(DEMO_LIMITS.monthly_quota / 2);
    expect(month.reduce((most, r) => Math.max(most, r.events), 0)).toBeLessThanOrEqual(MAX_BATCH_EVENTS);
  });

  it('sends the first round at once and every tile kind in it', () => {
    const first = demoSchedule()(0);
    expect(flushesAfter(0)).toBe(true);
    expect(new Set(first.map((e) => e.type))).toEqual(new Set(['metric', 'uptime', 'deployment', 'error']));
  });
});
