import { describe, expect, it } from 'vitest';
import { MicroBatcher } from './micro-batch.ts';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('MicroBatcher', () => {
  it('runs everything submitted in one turn as one call, answering each in order', async () => {
    const calls: number[][] = [];
    const batcher = new MicroBatcher<number, number>(async (ops) => {
      calls.push(ops);
      return ops.map((n) => n * 10);
    });
    const results = await Promise.all([1, 2, 3].map((n) => batcher.submit(n)));
    expect(results).toEqual([10, 20, 30]);
    expect(calls).toEqual([[1, 2, 3]]);
  });

  it('keeps one call in flight and sends what queued meanwhile as the next call', async () => {
    const calls: number[][] = [];
    const gates: ReturnType<typeof deferred<void>>[] = [];
    const batcher = new MicroBatcher<number, number>(async (ops) => {
      calls.push(ops);
      const gate = deferred<void>();
      gates.push(gate);
      await gate.promise;
      return ops;
    });
    const first = batcher.submit(1);
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([[1]]);
    const later = [batcher.submit(2), batcher.submit(3)];
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([[1]]); // still waiting for the first call
    gates[0]!.resolve();
    await first;
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([[1], [2, 3]]);
    gates[1]!.resolve();
    expect(await Promise.all(later)).toEqual([2, 3]);
  });

  it('splits at maxOps and reports batch sizes', async () => {
    const sizes: number[] = [];
    const batcher = new MicroBatcher<number, number>(
      async (ops) => ops,
      2,
      (n) => sizes.push(n),
    );
    expect(await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.submit(n)))).toEqual([1, 2, 3, 4, 5]);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('fails only the operations of a failed call; later calls still run', async () => {
    let fail = true;
    const batcher = new MicroBatcher<number, number>(async (ops) => {
      if (fail) throw new Error('redis down');
      return ops;
    });
    const failed = await Promise.allSettled([batcher.submit(1), batcher.submit(2)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await batcher.submit(3)).toBe(3);
  });
});
