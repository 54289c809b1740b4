import { describe, expect, it } from 'vitest';
import { CLOUDEVENTS_BATCH, CLOUDEVENTS_STRUCTURED, mapCloudEvents } from './cloudevents.ts';
import { envelopeProblems } from './envelope-check.test-helper.ts';
import { fixture } from './fixtures/load.ts';

const receivedAt = new Date('2026-01-01T10:15:00.000Z');
const structured = (body: unknown) => mapCloudEvents({ mediaType: CLOUDEVENTS_STRUCTURED, headers: {}, body }, { receivedAt });

describe('CloudEvents 1.0 mapping', () => {
  it("maps the JSON format specification's example (structured mode)", () => {
    expect(structured(fixture('cloudevents-structured.json'))).toEqual({
      kind: 'events',
      events: [
        {
          type: 'infrastructure',
          name: 'com.example.someevent',
          timestamp: '2018-04-05T17:31:00Z',
          source: '/mycontext',
          attributes: {
            appinfoA: 'abc',
            appinfoB: 123,
            appinfoC: true,
            cloudevents: {
              specversion: '1.0',
              type: 'com.example.someevent',
              source: '/mycontext',
              id: 'A234-1234-1234',
              time: '2018-04-05T17:31:00Z',
              comexampleextension1: 'value',
              comexampleothervalue: 5,
              datacontenttype: 'application/json',
            },
          },
        },
      ],
    });
  });

  it('keeps base64 data as attributes.data_base64', () => {
    const result = structured(fixture('cloudevents-base64.json'));
    expect(result.kind === 'events' && result.events[0]!.attributes.data_base64).toBe('... base64 encoded string ...');
  });

  it("takes Pulseboard's fields from extensions: pbtype, pbseverity, pbchannel, correlationid", () => {
    const result = structured({
      specversion: '1.0',
      id: '1',
      source: 'ci',
      type: 'deploy_finished',
      pbtype: 'deployment',
      pbseverity: 'warn',
      pbchannel: 'eu',
      correlationid: 'run-7',
      time: receivedAt.toISOString(),
      data: 'plain text',
    });
    if (result.kind !== 'events') throw new Error(result.kind);
    expect(result.events[0]).toMatchObject({
      type: 'deployment',
      name: 'deploy_finished',
      severity: 'warn',
      channel: 'eu',
      correlation_id: 'run-7',
      attributes: { data: 'plain text' },
    });
    expect(envelopeProblems(result.events)).toBeNull();
  });

  it('reads binary mode from ce-* headers (percent-decoded), the body being the data', () => {
    const result = mapCloudEvents(
      {
        mediaType: 'application/json',
        headers: {
          'ce-specversion': '1.0',
          'ce-id': '42',
          'ce-source': 'urn:shop',
          'ce-type': 'order.placed',
          'ce-subject': 'order%2042',
          'ce-pbtype': 'metric',
          'content-type': 'application/json',
        },
        body: { value: 3 },
      },
      { receivedAt },
    );
    expect(result).toEqual({
      kind: 'events',
      events: [
        {
          type: 'metric',
          name: 'order.placed',
          timestamp: receivedAt.toISOString(),
          source: 'urn:shop',
          attributes: {
            value: 3,
            cloudevents: {
              specversion: '1.0',
              id: '42',
              source: 'urn:shop',
              type: 'order.placed',
              subject: 'order 42',
              pbtype: 'metric',
              datacontenttype: 'application/json',
            },
          },
        },
      ],
    });
  });

  it('maps every event of a batch, reporting problems by index', () => {
    const ok = { specversion: '1.0', id: '1', source: 's', type: 't' };
    const batch = mapCloudEvents({ mediaType: CLOUDEVENTS_BATCH, headers: {}, body: [ok, { ...ok, id: '2' }] }, { receivedAt });
    expect(batch.kind === 'events' && batch.events.length).toBe(2);
    expect(mapCloudEvents({ mediaType: CLOUDEVENTS_BATCH, headers: {}, body: [ok, { ...ok, specversion: '0.3', type: '' }, 7] }, { receivedAt })).toEqual({
      kind: 'invalid',
      details: { '[2]': ['must be a CloudEvent (an object)'] },
    });
    expect(mapCloudEvents({ mediaType: CLOUDEVENTS_BATCH, headers: {}, body: [ok, { ...ok, specversion: '0.3', type: '' }] }, { receivedAt })).toEqual({
      kind: 'invalid',
      details: { '[1].specversion': ['is not included in the list'], '[1].type': ["can't be blank"] },
    });
    expect(mapCloudEvents({ mediaType: CLOUDEVENTS_BATCH, headers: {}, body: [] }, { receivedAt }).kind).toBe('ignored');
    expect(mapCloudEvents({ mediaType: CLOUDEVENTS_BATCH, headers: {}, body: ok }, { receivedAt }).kind).toBe('invalid');
  });

  it('refuses events that break CloudEvents or name an unknown Pulseboard type', () => {
    expect(structured({ specversion: '1.0', id: '1', source: 's', type: 't', pbtype: 'billing', 'Bad-Name': 1, ext: { a: 1 } })).toEqual({
      kind: 'invalid',
      details: {
        'Bad-Name': ['is not a valid CloudEvents attribute name (a-z, 0-9, at most 20)'],
        ext: ['must be a string, number or boolean'],
        pbtype: ['is not included in the list'],
      },
    });
    expect(structured([]).kind).toBe('invalid');
    const nul = mapCloudEvents(
      {
        mediaType: 'application/json',
        headers: { 'ce-specversion': '1.0', 'ce-id': '1', 'ce-source': 's', 'ce-type': 't', 'ce-pbchannel': 'a%00b' },
        body: {},
      },
      { receivedAt },
    );
    expect(nul).toEqual({ kind: 'invalid', details: { 'ce-pbchannel': ['contains a NUL character or an unpaired surrogate'] } });
    expect(mapCloudEvents({ mediaType: 'application/json', headers: {}, body: { a: 1 } }, { receivedAt })).toMatchObject({
      kind: 'invalid',
      details: { 'ce-specversion': [expect.stringMatching(/^can't be blank/)] },
    });
  });
});
