import { describe, expect, it } from 'vitest';
import type { IngestedEvent } from '@pulseboard/contracts';
import { matchesTail, Tail } from './tail.ts';

const event = (over: Partial<IngestedEvent> = {}): IngestedEvent => ({
  id: 1,
  project_key: 'p',
  account_id: 1,
  type: 'error',
  name: 'exception',
  timestamp: '2026-01-01T00:00:00Z',
  received_at: '2026-01-01T00:00:00Z',
  attributes: {},
  severity: 'error',
  channel: 'api',
  labels: ['prod', 'eu'],
  ...over,
});

describe('tail filters (those of GET /events)', () => {
  it('equality on type, name, severity, channel; every label given must be present', () => {
    expect(matchesTail({}, event())).toBe(true);
    expect(matchesTail({ type: 'error', name: 'exception', severity: 'error', channel: 'api', label: ['prod'] }, event())).toBe(true);
    expect(matchesTail({ type: 'metric' }, event())).toBe(false);
    expect(matchesTail({ name: 'other' }, event())).toBe(false);
    expect(matchesTail({ severity: 'critical' }, event())).toBe(false);
    expect(matchesTail({ channel: 'web' }, event())).toBe(false);
    expect(matchesTail({ label: ['prod', 'us'] }, event())).toBe(false);
    expect(matchesTail({ label: ['prod'] }, event({ labels: undefined }))).toBe(false);
    expect(matchesTail({ severity: 'error' }, event({ severity: undefined }))).toBe(false);
  });
});

describe('tail rate bound', () => {
  const setup = (room = () => true) => {
    let now = 1_000_000;
    const sent: string[] = [];
    const tail = new Tail('p', { type: 'error' }, 5, { roomForEvents: room, send: (f) => sent.push(f.toString()) }, () => now);
    const frame = () => Buffer.from('{"type":"event"}');
    return { tail, sent, frame, advance: (ms: number) => (now += ms) };
  };

  it('sends at most a second of events at once, counts the rest, and reports the count before the next event', () => {
    const { tail, sent, frame, advance } = setup();
    const results = Array.from({ length: 12 }, () => tail.offer(event(), frame));
    expect(results.filter((r) => r === 'sent')).toHaveLength(5);
    expect(results.filter((r) => r === 'skipped')).toHaveLength(7);
    expect(tail.offer(event({ type: 'metric' }), frame)).toBe('filtered');
    expect(sent).toHaveLength(5);
    advance(200); // one token back
    expect(tail.offer(event(), frame)).toBe('sent');
    expect(sent.slice(5).map((s) => JSON.parse(s))).toEqual([{ type: 'skipped', v: 1, project: 'p', count: 7, reason: 'rate' }, { type: 'event' }]);
  });

  it('a client with no room is skipped (slow_client), not queued; the count comes with the second tick', () => {
    let room = false;
    const { tail, sent, frame } = setup(() => room);
    for (let i = 0; i < 3; i++) expect(tail.offer(event(), frame)).toBe('skipped');
    expect(sent).toEqual([]);
    room = true;
    tail.flushSkipped();
    tail.flushSkipped();
    expect(sent.map((s) => JSON.parse(s))).toEqual([{ type: 'skipped', v: 1, project: 'p', count: 3, reason: 'slow_client' }]);
  });
});
