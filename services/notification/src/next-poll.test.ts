import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NextPoll } from './next-poll.ts';

describe('NextPoll: when the delivery schedule is read next', () => {
  let polls: number[];
  let next: NextPoll;
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
    polls = [];
    next = new NextPoll(() => polls.push(Date.now()), { minMs: 200, maxMs: 5000 });
  });
  afterEach(() => {
    next.stop();
    vi.useRealTimers();
  });

  it('an idle schedule (nothing pending) is read again only after maxMs', () => {
    next.afterRead(undefined);
    vi.advanceTimersByTime(4999);
    expect(polls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(polls).toEqual([1_005_000]);
  });

  it('reads again when the next delivery falls due, not before minMs and not after maxMs', () => {
    next.afterRead(1200);
    vi.advanceTimersByTime(1200);
    expect(polls).toEqual([1_001_200]);
    next.afterRead(0);
    vi.advanceTimersByTime(200);
    expect(polls).toEqual([1_001_200, 1_001_400]);
    next.afterRead(60_000);
    vi.advanceTimersByTime(5000);
    expect(polls).toEqual([1_001_200, 1_001_400, 1_006_400]);
  });

  it('a retry this instance scheduled is read at its due time, before a later planned poll', () => {
    next.afterRead(undefined);
    next.planAt(Date.now() + 1000);
    expect(next.planned()).toBe(1_001_000);
    vi.advanceTimersByTime(5000);
    expect(polls).toEqual([1_001_000]);
  });

  it('keeps the earliest of several plans and polls once for them', () => {
    next.planAt(Date.now() + 300);
    next.planAt(Date.now() + 3000);
    next.afterRead(undefined);
    vi.advanceTimersByTime(10_000);
    expect(polls).toEqual([1_000_300]);
  });

  it('polls no more once stopped', () => {
    next.planAt(Date.now() + 100);
    next.stop();
    next.planAt(Date.now() + 100);
    vi.advanceTimersByTime(10_000);
    expect(polls).toEqual([]);
  });
});
