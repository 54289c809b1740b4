import { describe, expect, it } from 'vitest';
import { Hub, type ChangeFrame, type Subscriber } from './hub.ts';

function recorder(): Subscriber & { got: ChangeFrame[] } {
  const got: ChangeFrame[] = [];
  return { got, deliver: (change) => got.push(change), deliverFrame: () => undefined };
}

describe('hub', () => {
  it("builds a change's frame once: every subscriber of the project gets the very same bytes, others nothing", () => {
    const hub = new Hub();
    const [a, b, c, other] = [recorder(), recorder(), recorder(), recorder()];
    for (const s of [a, b, c]) hub.add('p1', s);
    hub.add('p2', other);
    const raw = JSON.stringify({ tile_id: 7, project_key: 'p1', status: 'critical', value: 'é' });
    expect(hub.publish('p1', 42, raw)).toBe(3);
    const frame = a.got[0]!.frame;
    expect(b.got[0]!.frame).toBe(frame);
    expect(c.got[0]!.frame).toBe(frame);
    expect(other.got).toEqual([]);
    expect(JSON.parse(frame.toString('utf8'))).toEqual({ type: 'change', change: JSON.parse(raw) });
    expect(a.got[0]).toMatchObject({ projectKey: 'p1', position: 42 });

    hub.remove('p1', a);
    expect(hub.publish('p1', 43, raw)).toBe(2);
    expect(a.got).toHaveLength(1);
  });
});
