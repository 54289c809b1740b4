import { describe, expect, it } from 'vitest';
import { windowsAt } from './windows.ts';

describe('fixed UTC windows', () => {
  it('aligns minute, hour and month to the UTC clock', () => {
    const now = Date.UTC(2026, 10, 22, 13, 45, 30, 500);
    const w = windowsAt(now);
    expect(w.minute.resetAt).toBe(Date.UTC(2026, 10, 22, 13, 46) / 1000);
    expect(w.hour.resetAt).toBe(Date.UTC(2026, 10, 22, 14) / 1000);
    expect(w.month.resetAt).toBe(Date.UTC(2026, 11, 1) / 1000);
    expect(w.month.id).toBe('202611');
    expect(w.month.start.toISOString()).toBe('2026-11-01T00:00:00.000Z');
  });

  it('rolls December over into January of the next year', () => {
    const w = windowsAt(Date.UTC(2026, 11, 31, 23, 59, 59));
    expect(w.month.id).toBe('202612');
    expect(new Date(w.month.resetAt * 1000).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(windowsAt(Date.UTC(2027, 0, 1)).month.id).toBe('202701');
  });

  it('starts a new window exactly at the boundary', () => {
    const before = windowsAt(Date.UTC(2026, 0, 1, 10, 59, 59, 999));
    const at = windowsAt(Date.UTC(2026, 0, 1, 11, 0, 0, 0));
    expect(at.hour.id).toBe(before.hour.id + 1);
    expect(at.minute.id).toBe(before.minute.id + 1);
  });
});
