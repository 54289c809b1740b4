import { describe, expect, it } from 'vitest';
import { TOPICS, topicDefinitions } from './topics.ts';

const event = {
  id: 7,
  project_key: 'p1',
  account_id: 3,
  type: 'error',
  name: 'boom',
  timestamp: '2026-01-02T03:04:05Z',
  received_at: '2026-01-02T03:04:06.000Z',
  attributes: { host: 'web-1' },
} as const;
const change = {
  position: 9,
  tile_id: 4,
  project_key: 'p1',
  tile_name: 'Errors',
  status: 'critical',
  previous_status: 'ok',
  value: 12,
  previous_value: 3,
  version: 2,
  event_id: 7,
  changed_at: '2026-01-02T03:04:06.000Z',
  cause: 'event',
} as const;

function bytes(v: string | Buffer): Buffer {
  return typeof v === 'string' ? Buffer.from(v, 'utf8') : v;
}

describe('topic definitions', () => {
  it('every topic has a versioned default name, a schema with $id (or opaque bytes), documented headers and a creation spec', () => {
    for (const t of topicDefinitions()) {
      expect(t.name).toMatch(new RegExp(`\\.v${t.version}$`));
      if (t.valueSchema !== undefined) expect(t.valueSchema.$id).toMatch(/^https:\/\/pulseboard\.dev\/schemas\/.+\.json$/);
      expect(Object.keys(t.headers).length).toBeGreaterThan(0);
      expect(t.spec(`x-${t.id}`)).toMatchObject({ topic: `x-${t.id}`, numPartitions: t.partitions });
    }
  });

  it('the events topic: key is the project, headers name the schema and id, the value decodes back', () => {
    const m = TOPICS.events.encode({ event, outcomeWanted: true });
    expect(bytes(m.key).toString()).toBe('p1');
    expect(Object.fromEntries(Object.entries(m.headers).map(([k, v]) => [k, bytes(v).toString()]))).toEqual({
      'content-type': 'application/json',
      'pb-schema': 'ingested-event/1',
      'pb-event-id': '7',
      'pb-outcome-wanted': '1',
    });
    expect(TOPICS.events.encode({ event }).headers['pb-outcome-wanted']).toBeUndefined();
    expect(TOPICS.events.decode(bytes(m.value))).toEqual({ ok: true, value: event });
  });

  it('decoders refuse what the schema refuses, with a dead-letter reason', () => {
    expect(TOPICS.events.decode(null)).toMatchObject({ ok: false, code: 'empty_value' });
    expect(TOPICS.events.decode(Buffer.from('{'))).toMatchObject({ ok: false, code: 'invalid_json' });
    expect(TOPICS.events.decode(Buffer.from(JSON.stringify({ ...event, id: 'x' })))).toMatchObject({ ok: false, code: 'schema_violation' });
    expect(TOPICS.tileChanges.decode(Buffer.from(JSON.stringify({ ...change, position: 0 })))).toMatchObject({ ok: false, code: 'schema_violation' });
    expect(TOPICS.ruleOutcomes.decode(Buffer.from('{"event_id":1}'))).toMatchObject({ ok: false, code: 'schema_violation' });
    expect(TOPICS.notificationRequests.decode(Buffer.from('{"request_id":"x"}'))).toMatchObject({ ok: false, code: 'schema_violation' });
  });

  it('every JSON topic round-trips through its encoder and decoder', () => {
    const tc = TOPICS.tileChanges.encode(change);
    expect(tc.key).toBe('p1');
    expect(tc.headers['pb-schema']).toBe('tile-change/1');
    expect(TOPICS.tileChanges.decode(Buffer.from(tc.value))).toEqual({ ok: true, value: change });

    const ro = TOPICS.ruleOutcomes.encode({ project_key: 'p1', event_id: 7, tiles_affected: 2 });
    expect(ro.key).toBe('p1');
    expect(TOPICS.ruleOutcomes.decode(Buffer.from(ro.value))).toEqual({ ok: true, value: { event_id: 7, tiles_affected: 2 } });

    const request = { request_id: 'msg_1', service_id: 2, account_id: 3, subject: 's', body: 'b', test: false };
    const rq = TOPICS.notificationRequests.encode(request);
    expect(rq.key).toBe('3');
    expect(TOPICS.notificationRequests.decode(Buffer.from(rq.value))).toEqual({ ok: true, value: request });

    const outcome = { request_id: 'msg_1', delivery_id: 'msg_1', status: 'delivered', attempts: 1, response_status: 200 } as const;
    expect(TOPICS.notificationOutcomes.decode(Buffer.from(TOPICS.notificationOutcomes.encode(outcome).value))).toEqual({ ok: true, value: outcome });

    const letter = {
      delivery_id: 'dlv_1_2',
      service_id: 2,
      kind: 'transition',
      payload: {},
      attempts: 5,
      last_error: 'HTTP 500',
      created_at: '2026-01-02T03:04:06.000Z',
    } as const;
    const dl = TOPICS.notificationsDeadLetter.encode(letter);
    expect(dl.headers['pb-dlq-reason']).toBe('delivery_failed');
    expect(TOPICS.notificationsDeadLetter.decode(Buffer.from(dl.value))).toEqual({ ok: true, value: letter });
  });

  it("the control topic: keyed by project, compacted, a change round-trips; events carry the gateway's project revision", () => {
    const change = { project_key: 'p1', revision: 12, change: 'tile_updated', tile_id: 4, at: '2026-01-02T03:04:06.000Z' } as const;
    const m = TOPICS.control.encode(change);
    expect(m.key).toBe('p1');
    expect(m.headers['pb-schema']).toBe('control-change/1');
    expect(TOPICS.control.decode(Buffer.from(m.value))).toEqual({ ok: true, value: change });
    expect(TOPICS.control.decode(Buffer.from(JSON.stringify({ ...change, change: 'tile_renamed' })))).toMatchObject({ ok: false, code: 'schema_violation' });
    expect(TOPICS.control.spec('c').configEntries).toEqual([{ name: 'cleanup.policy', value: 'compact' }]);
    expect(bytes(TOPICS.events.encode({ event, projectRevision: 12 }).headers['pb-project-revision']!).toString()).toBe('12');
  });

  it('a dead letter of the events topic keeps the original key, bytes and headers and adds why', () => {
    const m = TOPICS.eventsDeadLetter.encode({
      original: { key: Buffer.from('p1'), value: Buffer.from('junk'), headers: { 'pb-event-id': '7' } },
      info: { code: 'invalid_json', message: 'bad', topic: 't', partition: 2, offset: '11', groupId: 'g' },
      at: new Date(0),
    });
    expect(bytes(m.key).toString()).toBe('p1');
    expect(bytes(m.value).toString()).toBe('junk');
    expect(m.headers).toMatchObject({
      'pb-event-id': '7',
      'pb-dlq-reason': 'invalid_json',
      'pb-dlq-partition': '2',
      'pb-dlq-offset': '11',
      'pb-dlq-at': '1970-01-01T00:00:00.000Z',
    });
  });

  it('the events topics are sized for a body of the limit', () => {
    expect(TOPICS.events.spec('e', { BODY_LIMIT_BYTES: 1_048_576 }).configEntries).toEqual([
      { name: 'max.message.bytes', value: String(2 * 1_048_576 + 65_536) },
    ]);
  });
});
