import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { drainWithin } from './lifecycle.ts';

const logger = pino({ level: 'silent' });

describe('drainWithin', () => {
  it('runs the steps in order, each after the one before, and resolves', async () => {
    const order: string[] = [];
    const step = (name: string) => [name, async () => void order.push(name)] as const;
    await drainWithin(1000, logger, 'svc', [step('a'), step('b'), step('c')]);
    expect(order).toEqual(['a', 'b', 'c']);
  });

  it('a failed step does not keep the later ones (stores are still closed) but the drain rejects', async () => {
    const order: string[] = [];
    await expect(
      drainWithin(1000, logger, 'svc', [
        ['flush', () => Promise.reject(new Error('no broker'))],
        ['close', () => void order.push('close')],
      ]),
    ).rejects.toThrow('drain step flush failed');
    expect(order).toEqual(['close']);
  });

  it('gives up at the bound when a step hangs, naming it', async () => {
    const started = Date.now();
    await expect(
      drainWithin(200, logger, 'svc', [
        ['consumer', () => undefined],
        ['postgres', () => new Promise(() => undefined)],
      ]),
    ).rejects.toThrow('still at postgres');
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
