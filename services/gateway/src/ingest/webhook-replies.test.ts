import { describe, expect, it } from 'vitest';
import { webhookAccepted } from './webhook-replies.ts';

const at = new Date(Date.UTC(2031, 0, 2, 3, 4, 5, 6));

describe('webhook success bodies (spec 4.2, CONTRACT Webhooks endpoint)', () => {
  it('single event without a rule outcome: 202 accepted, no tiles_affected', () => {
    expect(webhookAccepted([42], at, false)).toEqual({
      status: 202,
      body: { status: 'accepted', event_id: 'evt_42', processed_at: '2031-01-02T03:04:05.006Z' },
    });
  });

  it('single event with the outcome: 201 success with tiles_affected', () => {
    expect(webhookAccepted([42], at, false, new Map([[42, 3]]))).toEqual({
      status: 201,
      body: { status: 'success', event_id: 'evt_42', processed_at: '2031-01-02T03:04:05.006Z', tiles_affected: 3 },
    });
  });

  it('batch without outcomes: 202 with count and one id per event, in order', () => {
    expect(webhookAccepted([7, 9], at, true)).toEqual({
      status: 202,
      body: { status: 'accepted', count: 2, processed_at: '2031-01-02T03:04:05.006Z', events: [{ event_id: 'evt_7' }, { event_id: 'evt_9' }] },
    });
  });

  it('batch with outcomes: 201 with the sum and per-event tiles_affected', () => {
    expect(
      webhookAccepted(
        [7, 9],
        at,
        true,
        new Map([
          [7, 2],
          [9, 0],
        ]),
      ),
    ).toEqual({
      status: 201,
      body: {
        status: 'success',
        count: 2,
        processed_at: '2031-01-02T03:04:05.006Z',
        tiles_affected: 2,
        events: [
          { event_id: 'evt_7', tiles_affected: 2 },
          { event_id: 'evt_9', tiles_affected: 0 },
        ],
      },
    });
  });
});
