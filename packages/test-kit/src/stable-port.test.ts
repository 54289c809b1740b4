import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from './processes.ts';
import { ephemeralRange, stablePort } from './stable-port.ts';

const listenOn = (port: number) =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const bound = (server.address() as { port: number }).port;
      server.close(() => resolve(bound));
    });
  });

describe('stablePort: a port a stopped server gets back on start', () => {
  it('lies outside the range listen(0) and outgoing connections draw from, and so do freePort() ports', async () => {
    const { low, high } = ephemeralRange();
    for (let i = 0; i < 20; i++) {
      const port = await stablePort();
      expect(port < low || port > high, `${port} in ${low}-${high}`).toBe(true);
      expect(await listenOn(port)).toBe(port);
    }
    // A port for a server about to start: no later listen(0) elsewhere may be handed it first.
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port < low || port > high, `${port} in ${low}-${high}`).toBe(true);
    }
  });
});
