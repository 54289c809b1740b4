import { describe, expect, it } from 'vitest';
import { mapAlertmanager } from './alertmanager.ts';
import { envelopeProblems } from './envelope-check.test-helper.ts';
import { fixture } from './fixtures/load.ts';

const receivedAt = new Date('2026-01-01T10:15:00.000Z');

describe('Alertmanager webhook mapping', () => {
  it('makes one error/alert event per firing alert, fingerprint as correlation_id, labels and annotations kept', () => {
    const result = mapAlertmanager(fixture('alertmanager-firing.json'), { receivedAt });
    expect(result.kind).toBe('events');
    if (result.kind !== 'events') return;
    expect(result.events).toHaveLength(2);
    const [first] = result.events;
    expect(first).toEqual({
      type: 'error',
      name: 'alert',
      timestamp: '2026-01-01T10:00:00.000Z',
      severity: 'critical',
      correlation_id: 'c3f3c1d7b1a2e4f5',
      source: 'alertmanager',
      labels: ['alertname=HighErrorRate', 'instance=api-1:8080', 'job=api', 'severity=critical'],
      attributes: {
        alertname: 'HighErrorRate',
        status: 'firing',
        resolved: false,
        fingerprint: 'c3f3c1d7b1a2e4f5',
        labels: { alertname: 'HighErrorRate', instance: 'api-1:8080', job: 'api', severity: 'critical' },
        annotations: { summary: 'API error rate above 5%', description: 'api-1 answers 7.2% of requests with a 5xx' },
        starts_at: '2026-01-01T10:00:00.000Z',
        generator_url: 'http://prometheus.example.com:9090/graph?g0.expr=job%3Aerrors%3Arate5m+%3E+0.05&g0.tab=1',
        receiver: 'pulseboard',
        group_key: '{}:{alertname="HighErrorRate"}',
        external_url: 'http://alertmanager.example.com:9093',
      },
    });
    expect(result.events[1]!.correlation_id).toBe('8e1f0c2a9b7d6e55');
    expect(envelopeProblems(result.events)).toBeNull();
  });

  it('maps a resolved alert to the same alert (name, correlation_id) resolved, at its endsAt, severity info', () => {
    const result = mapAlertmanager(fixture('alertmanager-resolved.json'), { receivedAt });
    if (result.kind !== 'events') throw new Error(result.kind);
    expect(result.events).toHaveLength(1);
    expect(result.events[0]).toMatchObject({
      type: 'error',
      name: 'alert',
      timestamp: '2026-01-01T10:12:00.000Z',
      severity: 'info',
      correlation_id: 'c3f3c1d7b1a2e4f5',
      attributes: { status: 'resolved', resolved: true, ends_at: '2026-01-01T10:12:00.000Z' },
    });
    expect(envelopeProblems(result.events)).toBeNull();
  });

  it('uses the receipt time for an alert firing since before the last day (a repeat notification), keeping starts_at', () => {
    const result = mapAlertmanager(fixture('alertmanager-firing.json'), { receivedAt: new Date('2026-03-01T00:00:00.000Z') });
    if (result.kind !== 'events') throw new Error(result.kind);
    expect(result.events[0]!.timestamp).toBe('2026-03-01T00:00:00.000Z');
    expect(result.events[0]!.attributes.starts_at).toBe('2026-01-01T10:00:00.000Z');
  });

  it('maps severity labels to spec severities and defaults to error', () => {
    const alert = (severity?: string) => ({
      status: 'firing',
      labels: { alertname: 'A', ...(severity === undefined ? {} : { severity }) },
      annotations: {},
      startsAt: receivedAt.toISOString(),
      fingerprint: 'f',
    });
    const severities = [undefined, 'warning', 'info', 'page', 'critical', 'whatever'].map((s) => {
      const r = mapAlertmanager({ alerts: [alert(s)] }, { receivedAt });
      return r.kind === 'events' ? r.events[0]!.severity : r.kind;
    });
    expect(severities).toEqual(['error', 'warn', 'info', 'critical', 'critical', 'error']);
  });

  it('derives a stable correlation_id from the labels when Alertmanager sent no fingerprint', () => {
    const body = (labels: Record<string, string>) => ({ alerts: [{ status: 'firing', labels, startsAt: receivedAt.toISOString() }] });
    const a = mapAlertmanager(body({ alertname: 'X', job: 'a' }), { receivedAt });
    const b = mapAlertmanager(body({ job: 'a', alertname: 'X' }), { receivedAt });
    const c = mapAlertmanager(body({ alertname: 'X', job: 'b' }), { receivedAt });
    if (a.kind !== 'events' || b.kind !== 'events' || c.kind !== 'events') throw new Error('not mapped');
    expect(a.events[0]!.correlation_id).toMatch(/^[0-9a-f]{16}$/);
    expect(a.events[0]!.correlation_id).toBe(b.events[0]!.correlation_id);
    expect(c.events[0]!.correlation_id).not.toBe(a.events[0]!.correlation_id);
  });

  it('refuses what is not an Alertmanager payload, naming the field', () => {
    expect(mapAlertmanager([], { receivedAt })).toEqual({ kind: 'invalid', details: { base: ['must be an Alertmanager webhook payload (an object)'] } });
    expect(mapAlertmanager({ type: 'error' }, { receivedAt })).toEqual({ kind: 'invalid', details: { alerts: ["can't be blank"] } });
    expect(mapAlertmanager({ alerts: {} }, { receivedAt })).toEqual({ kind: 'invalid', details: { alerts: ['must be an array'] } });
    expect(mapAlertmanager({ alerts: [{ status: 'pending' }, 3, { status: 'firing', labels: { a: 1 } }] }, { receivedAt })).toEqual({
      kind: 'invalid',
      details: { 'alerts[0].status': ['is not included in the list'], 'alerts[1]': ['must be an object'], 'alerts[2].labels.a': ['must be a string'] },
    });
  });

  it('ignores a payload with no alerts', () => {
    expect(mapAlertmanager({ alerts: [] }, { receivedAt }).kind).toBe('ignored');
  });
});
