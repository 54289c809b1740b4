import { describe, expect, it } from 'vitest';
import { mapPagerDuty } from './pagerduty.ts';
import { envelopeProblems } from './envelope-check.test-helper.ts';
import { fixture } from './fixtures/load.ts';

const receivedAt = new Date('2026-01-01T10:15:00.000Z');
const context = { receivedAt, newDedupKey: 'generated-key' };

describe('PagerDuty Events API v2 mapping', () => {
  it("maps PagerDuty's documented trigger: dedup_key as correlation_id, severity, custom_details as attributes", () => {
    const result = mapPagerDuty(fixture('pagerduty-trigger.json'), context);
    expect(result).toEqual({
      kind: 'events',
      dedupKey: 'samplekeyhere',
      events: [
        {
          type: 'error',
          name: 'alert',
          // The documented 2015 timestamp is older than any retention: the receipt time, the original kept.
          timestamp: '2026-01-01T10:15:00.000Z',
          severity: 'info',
          source: 'monitoringtool:cloudvendor:central-region-dc-01:852559987:cluster/api-stats-prod-003',
          correlation_id: 'samplekeyhere',
          attributes: {
            'ping time': '1500ms',
            'load avg': 0.75,
            summary: 'Example alert on host1.example.com',
            component: 'postgres',
            group: 'prod-datapipe',
            class: 'deploy',
            timestamp: '2015-07-17T08:42:58.315+0000',
            dedup_key: 'samplekeyhere',
            event_action: 'trigger',
            status: 'triggered',
            resolved: false,
            client: 'Sample Monitoring Service',
            client_url: 'https://monitoring.example.com',
            links: [{ href: 'https://example.com/', text: 'Link text' }],
            images: [
              { src: 'https://www.pagerduty.com/wp-content/uploads/2016/05/pagerduty-logo-green.png', href: 'https://example.com/', alt: 'Example text' },
            ],
          },
        },
      ],
    });
    if (result.kind === 'events') expect(envelopeProblems(result.events)).toBeNull();
  });

  it('never keeps the routing key (the API key) in the event', () => {
    const result = mapPagerDuty(fixture('pagerduty-trigger.json'), context);
    expect(JSON.stringify(result)).not.toContain('routing_key');
  });

  it('keeps a recent payload timestamp as the event time', () => {
    const body = fixture('pagerduty-trigger.json');
    (body.payload as Record<string, unknown>).timestamp = '2026-01-01T10:14:00.000+0000';
    const result = mapPagerDuty(body, context);
    expect(result.kind === 'events' && result.events[0]!.timestamp).toBe('2026-01-01T10:14:00.000Z');
  });

  it('maps acknowledge and resolve to the same alert with the new status', () => {
    const ack = mapPagerDuty(fixture('pagerduty-acknowledge.json'), context);
    const resolve = mapPagerDuty(fixture('pagerduty-resolve.json'), context);
    expect(ack).toEqual({
      kind: 'events',
      dedupKey: 'samplekeyhere',
      events: [
        {
          type: 'error',
          name: 'alert',
          timestamp: receivedAt.toISOString(),
          correlation_id: 'samplekeyhere',
          attributes: { dedup_key: 'samplekeyhere', event_action: 'acknowledge', status: 'acknowledged', resolved: false },
        },
      ],
    });
    expect(resolve.kind === 'events' && resolve.events[0]!.attributes).toEqual({
      dedup_key: 'samplekeyhere',
      event_action: 'resolve',
      status: 'resolved',
      resolved: true,
    });
    for (const r of [ack, resolve]) if (r.kind === 'events') expect(envelopeProblems(r.events)).toBeNull();
  });

  it('maps severities: critical, error, warning (warn), info', () => {
    const severities = ['critical', 'error', 'warning', 'info'].map((severity) => {
      const r = mapPagerDuty({ event_action: 'trigger', payload: { summary: 's', source: 'h', severity } }, context);
      return r.kind === 'events' ? r.events[0]!.severity : r.kind;
    });
    expect(severities).toEqual(['critical', 'error', 'warn', 'info']);
  });

  it("maps Alertmanager's pagerduty_configs trigger and resolve to one alert followed to resolved", () => {
    const trigger = mapPagerDuty(fixture('pagerduty-alertmanager-trigger.json'), context);
    const resolve = mapPagerDuty(fixture('pagerduty-alertmanager-resolve.json'), context);
    if (trigger.kind !== 'events' || resolve.kind !== 'events') throw new Error('not mapped');
    const key = '3b9bc2a0e4c0d7f7a4e2b6b0e7f2b8c5a2f94b7e2c1d0e9f8a7b6c5d4e3f2a1b';
    expect(trigger.dedupKey).toBe(key);
    expect(trigger.events[0]).toMatchObject({
      type: 'error',
      name: 'alert',
      severity: 'error',
      source: 'Alertmanager',
      correlation_id: key,
      attributes: {
        num_firing: '1',
        status: 'triggered',
        resolved: false,
        summary: '[FIRING:1] DiskFull (node-1:9100 node critical)',
        client: 'Alertmanager',
        links: [],
        images: [],
      },
    });
    expect(resolve.events[0]).toMatchObject({
      type: 'error',
      name: 'alert',
      source: 'Alertmanager',
      correlation_id: key,
      attributes: { status: 'resolved', resolved: true },
    });
    expect(envelopeProblems([...trigger.events, ...resolve.events])).toBeNull();
  });

  it('gives a trigger without dedup_key the generated key', () => {
    const r = mapPagerDuty({ event_action: 'trigger', payload: { summary: 's', source: 'h', severity: 'info' } }, context);
    expect(r.kind === 'events' && [r.dedupKey, r.events[0]!.correlation_id]).toEqual(['generated-key', 'generated-key']);
  });

  it('refuses events PagerDuty refuses, naming the fields', () => {
    expect(mapPagerDuty({ event_action: 'page' }, context)).toEqual({ kind: 'invalid', details: { event_action: ['is not included in the list'] } });
    expect(mapPagerDuty({ event_action: 'resolve' }, context)).toEqual({ kind: 'invalid', details: { dedup_key: ["can't be blank"] } });
    expect(mapPagerDuty({ event_action: 'trigger' }, context)).toEqual({ kind: 'invalid', details: { payload: ["can't be blank"] } });
    expect(mapPagerDuty({ event_action: 'trigger', payload: { summary: 'x'.repeat(1025), severity: 'urgent' } }, context)).toEqual({
      kind: 'invalid',
      details: {
        'payload.summary': ['is too long (maximum is 1024 characters)'],
        'payload.source': ["can't be blank"],
        'payload.severity': ['is not included in the list'],
      },
    });
    expect(mapPagerDuty('x', context).kind).toBe('invalid');
  });
});
