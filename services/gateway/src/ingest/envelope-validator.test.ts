import { describe, expect, it } from 'vitest';
import { createEnvelopeValidator } from './envelope-validator.ts';

const validator = createEnvelopeValidator();
const event = { type: 'metric', name: 'cpu_usage', timestamp: '2031-01-01T00:00:00Z', attributes: { value: 3 } };

describe('envelope and webhook validation', () => {
  it('requires project_key on /ingest but not in a webhook event', () => {
    expect(validator.envelope(event)).toEqual({ project_key: ["can't be blank"] });
    expect(validator.webhookEvent(event)).toBeNull();
    expect(validator.webhookEvent({ ...event, project_key: 'p' })).toBeNull();
  });

  it('keys batch details by event index and field', () => {
    expect(
      validator.webhookBatch({
        events: [event, { ...event, type: 'x', labels: ['ok', 3] }, 5, { ...event, name: undefined, severity: 'loud' }],
      }),
    ).toEqual({
      'events[1].type': ['is not included in the list'],
      'events[1].labels': ['must be an array of strings'],
      'events[2]': ['must be an object'],
      'events[3].name': ["can't be blank"],
      'events[3].severity': ['is not included in the list'],
    });
  });

  it('checks the batch itself: present, an array, 1 to 100 events', () => {
    expect(validator.webhookBatch({ events: Array.from({ length: 100 }, () => event) })).toBeNull();
    expect(validator.webhookBatch({ events: Array.from({ length: 101 }, () => event) })).toEqual({ events: ['is too long (maximum is 100 items)'] });
    expect(validator.webhookBatch({ events: [] })).toEqual({ events: ["can't be blank"] });
    expect(validator.webhookBatch({ events: {} })).toEqual({ events: ['must be an array'] });
    expect(validator.webhookBatch({ events: [event], project_key: 7 })).toEqual({ project_key: ['must be a string'] });
  });
});
