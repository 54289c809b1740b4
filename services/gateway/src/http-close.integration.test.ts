import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestGateway } from '../test/test-gateway.ts';

/**
 * A request that never ends (a client that stalls mid-body) must not hold up a gateway's drain:
 * after half of SHUTDOWN_TIMEOUT_MS its connection is cut and the drain goes on to flush the
 * producer and close the stores, so stop() resolves instead of giving up at the bound.
 */
describe('gateway drain with a request that never ends', () => {
  it('cuts the stalled connection after the grace and finishes the drain within SHUTDOWN_TIMEOUT_MS', async () => {
    const gateway = await startTestGateway({ SHUTDOWN_TIMEOUT_MS: '4000' });
    const { port } = new URL(gateway.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {});
    // Headers promise 100 bytes of body; once the server has taken the request in (its 100 Continue), only 10 come.
    const continued = new Promise<void>((resolve) => socket.on('data', (chunk) => chunk.toString().includes('100 Continue') && resolve()));
    socket.write(
      'POST /ingest HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer evk_stalled\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n',
    );
    await continued;
    socket.write('{"project_');

    const logged: string[] = [];
    const logger = gateway.deps.logger as unknown as { warn: (...args: unknown[]) => void };
    const warn = logger.warn.bind(logger);
    logger.warn = (...args: unknown[]) => (logged.push(JSON.stringify(args[0])), warn(...args));

    await expect(gateway.stop()).resolves.toBeUndefined();
    await closed;
    expect(logged.some((line) => line.includes('"event":"http_connections_cut"'))).toBe(true);
  });
});
