import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '@pulseboard/config';
import type { RedisClient } from '../redis-client.ts';
import { RefusalLog } from './refusals.ts';

type Refusal = Parameters<RefusalLog['record']>[1];
const rateLimited = { kind: 'rate_limited', window: 'minute', used: 3, limit: 2, retryAfter: 10, resetAt: 0 } as unknown as Refusal;
const quotaExceeded = { kind: 'quota_exceeded', used: 5, limit: 5, resetAt: new Date(0) } as unknown as Refusal;

describe('ingest_refused log lines (what names the project behind PulseboardEventsRefused)', () => {
  it('one line per project and minute, with the limit that refused it, however many requests are refused', () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger('gateway', 'info', new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(String(chunk))), done()) }));
    let now = Date.UTC(2030, 0, 1, 12, 0, 5);
    // Counting never reaches Redis in this test: the flush is an hour away.
    const log = new RefusalLog({} as RedisClient, logger, () => now, 3_600_000);
    for (let i = 0; i < 50; i++) log.record('web', rateLimited);
    log.record('shop', quotaExceeded);
    now += 30_000;
    log.record('web', rateLimited);
    // The next minute: each project that is still refused, once more.
    now += 30_000;
    log.record('web', quotaExceeded);
    const refused = lines
      .filter((l) => l.event === 'ingest_refused')
      .map(({ project_key, status, reason, limit, level }) => ({ project_key, status, reason, limit, level }));
    expect(refused).toEqual([
      { project_key: 'web', status: 429, reason: 'minute', limit: 2, level: 30 },
      { project_key: 'shop', status: 402, reason: 'monthly_quota', limit: 5, level: 30 },
      { project_key: 'web', status: 402, reason: 'monthly_quota', limit: 5, level: 30 },
    ]);
  });
});
