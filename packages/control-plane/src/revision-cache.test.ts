import { afterEach, describe, expect, it, vi } from 'vitest';
import { RevisionCache, type RevisionTrigger } from './revision-cache.ts';

interface Value {
  revision: number;
  name: string;
}

/** A loader whose reads the test resolves one by one, in any order. */
function controlledLoader() {
  const pending: { key: string; resolve: (value: Value) => void }[] = [];
  const load = vi.fn(
    (key: string) =>
      new Promise<Value>((resolve) => {
        pending.push({ key, resolve });
      }),
  );
  return { load, pending };
}

function countingMetrics() {
  const counts = { hits: 0, reloads: [] as RevisionTrigger[] };
  return {
    counts,
    metrics: {
      hit: () => counts.hits++,
      reloaded: (trigger: RevisionTrigger) => counts.reloads.push(trigger),
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('RevisionCache', () => {
  it('loads a key once for concurrent misses (single flight), then serves it from memory', async () => {
    const { load, pending } = controlledLoader();
    const { counts, metrics } = countingMetrics();
    const cache = new RevisionCache<string, Value>({ load, revisionOf: (v) => v.revision, pollMs: 0, metrics });

    const first = cache.get('p1');
    const second = cache.get('p1');
    expect(load).toHaveBeenCalledTimes(1);
    pending[0]!.resolve({ revision: 1, name: 'a' });
    expect(await first).toEqual({ revision: 1, name: 'a' });
    expect(await second).toEqual({ revision: 1, name: 'a' });

    expect(cache.get('p1')).toEqual({ revision: 1, name: 'a' });
    expect(load).toHaveBeenCalledTimes(1);
    expect(counts).toEqual({ hits: 1, reloads: ['miss'] });
  });

  it('keeps the newer revision when an older read ends last', async () => {
    const { load, pending } = controlledLoader();
    const changes: [number, number][] = [];
    const cache = new RevisionCache<string, Value>({
      load,
      revisionOf: (v) => v.revision,
      pollMs: 0,
      onChange: (_key, next, previous) => changes.push([previous.revision, next.revision]),
    });
    const initial = cache.get('p1');
    pending[0]!.resolve({ revision: 1, name: 'a' });
    await initial;

    // Revision 3 is offered; its read returns 3. A poll's read started before revision 3 committed returns 2, later.
    const offered = cache.offer('p1', 3);
    pending[1]!.resolve({ revision: 3, name: 'c' });
    await offered;
    const polled = cache.poll();
    pending[2]!.resolve({ revision: 2, name: 'b' });
    await polled;

    expect(cache.cached('p1')).toEqual({ revision: 3, name: 'c' });
    expect(changes).toEqual([[1, 3]]);
  });

  it('reads again when a read already under way returns an older revision than offered', async () => {
    const { load, pending } = controlledLoader();
    const cache = new RevisionCache<string, Value>({ load, revisionOf: (v) => v.revision, pollMs: 0 });
    const initial = cache.get('p1');
    pending[0]!.resolve({ revision: 1, name: 'a' });
    await initial;

    const polled = cache.poll(); // under way, reads before revision 2 commits
    const offered = cache.offer('p1', 2); // joins that read, then must read once more
    pending[1]!.resolve({ revision: 1, name: 'a' });
    await polled;
    await vi.waitFor(() => expect(pending).toHaveLength(3));
    pending[2]!.resolve({ revision: 2, name: 'b' });
    await offered;

    expect(cache.cached('p1')).toEqual({ revision: 2, name: 'b' });
  });

  it('tells every caller that joined a read which copy it replaced', async () => {
    const { load, pending } = controlledLoader();
    const cache = new RevisionCache<string, Value>({ load, revisionOf: (v) => v.revision, pollMs: 0 });
    const initial = cache.get('p1');
    pending[0]!.resolve({ revision: 1, name: 'a' });
    await initial;

    const first = cache.atLeastChange('p1', 2);
    const second = cache.atLeastChange('p1', 2);
    pending[1]!.resolve({ revision: 2, name: 'b' });
    const expected = { value: { revision: 2, name: 'b' }, replaced: { revision: 1, name: 'a' } };
    expect(await first).toEqual(expected);
    expect(await second).toEqual(expected);
    expect(await cache.atLeastChange('p1', 2)).toEqual({ value: { revision: 2, name: 'b' } });
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('ignores an offer of a revision it already holds, or of a key it does not hold', async () => {
    const { load, pending } = controlledLoader();
    const cache = new RevisionCache<string, Value>({ load, revisionOf: (v) => v.revision, pollMs: 0 });
    const initial = cache.get('p1');
    pending[0]!.resolve({ revision: 4, name: 'd' });
    await initial;

    await cache.offer('p1', 4);
    await cache.offer('p1', 3);
    await cache.offer('other', 9);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('applies changes in revision order whatever order their reads end in', async () => {
    const { load, pending } = controlledLoader();
    const applied: number[] = [];
    const cache = new RevisionCache<string, Value>({
      load,
      revisionOf: (v) => v.revision,
      pollMs: 0,
      onChange: (_key, next) => applied.push(next.revision),
    });
    const initial = cache.get('p1');
    pending[0]!.resolve({ revision: 1, name: 'a' });
    await initial;

    for (const [revision, name] of [
      [3, 'c'],
      [2, 'b'],
      [5, 'e'],
      [4, 'd'],
    ] as const) {
      const reads = pending.length;
      const offered = cache.offer('p1', revision);
      // Revisions 2 and 4 arrive after a newer one is held: no read at all.
      if (pending.length > reads) pending.at(-1)!.resolve({ revision, name });
      await offered;
    }
    expect(applied).toEqual([3, 5]);
    expect(load).toHaveBeenCalledTimes(3);
    expect(cache.cached('p1')?.revision).toBe(5);
  });

  it('reloads, on the safety poll, only the held keys whose revision moved', async () => {
    vi.useFakeTimers();
    const store = new Map([
      ['p1', { revision: 1, name: 'a' }],
      ['p2', { revision: 1, name: 'x' }],
    ]);
    const load = vi.fn(async (key: string) => store.get(key)!);
    const { counts, metrics } = countingMetrics();
    const cache = new RevisionCache<string, Value>({
      load,
      revisionOf: (v) => v.revision,
      revisions: async (keys) => new Map(keys.map((key) => [key, store.get(key)!.revision])),
      pollMs: 30_000,
      metrics,
    });
    await cache.get('p1');
    await cache.get('p2');
    cache.start();

    store.set('p2', { revision: 2, name: 'y' });
    await vi.advanceTimersByTimeAsync(29_000);
    expect(cache.cached('p2')?.name).toBe('x');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(cache.cached('p2')?.name).toBe('y');
    expect(cache.cached('p1')?.name).toBe('a');
    expect(load).toHaveBeenCalledTimes(3);
    expect(counts.reloads).toEqual(['miss', 'miss', 'poll']);
    cache.stop();
  });

  it('keeps what it holds when a poll fails, and reports the failure', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    const cache = new RevisionCache<string, Value>({
      load: async () => ({ revision: 1, name: 'a' }),
      revisionOf: (v) => v.revision,
      revisions: async () => {
        throw new Error('owner unreachable');
      },
      pollMs: 1_000,
      onPollError: (error) => errors.push(error),
    });
    await cache.get('p1');
    cache.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(errors).toHaveLength(1);
    expect(cache.cached('p1')).toEqual({ revision: 1, name: 'a' });
    cache.stop();
  });
});
