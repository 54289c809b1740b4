import { createServer, connect, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { serviceTestEnv, TEST_DATABASE_URL } from '@pulseboard/test-kit';
import { loadStoreEnv } from './env.ts';
import { startStoreService } from './service.ts';

/** A TCP proxy to Postgres that can be frozen: from then on it forwards nothing and closes nothing (a partitioned network). */
async function freezableProxy(target: URL) {
  const sockets = new Set<Socket>();
  let frozen = false;
  const server: Server = createServer((client) => {
    sockets.add(client);
    if (frozen) return client.pause();
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as { port: number }).port);
  return {
    url: url.toString(),
    freeze() {
      frozen = true;
      for (const s of sockets) {
        s.unpipe();
        s.pause();
      }
    },
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

describe('store: stop() bounds its own drain (SHUTDOWN_TIMEOUT_MS)', () => {
  let proxy: Awaited<ReturnType<typeof freezableProxy>> | undefined;
  afterAll(() => proxy?.close());

  it('returns within the bound, naming the step it gave up at, when Postgres stops answering', async () => {
    proxy = await freezableProxy(new URL(TEST_DATABASE_URL));
    const logger = pino({ level: 'silent' });
    const store = await startStoreService(loadStoreEnv(serviceTestEnv({ DATABASE_URL: proxy.url, STORE_HTTP_PORT: '0', SHUTDOWN_TIMEOUT_MS: '1000' })), logger);
    proxy.freeze();
    // Without the bound this never settles (the pool waits for a server that neither answers nor hangs up).
    const outcome = await Promise.race([
      store.stop().then(
        () => 'stopped',
        (error: Error) => error.message,
      ),
      new Promise((resolve) => setTimeout(() => resolve('still draining after 15 s'), 15_000).unref()),
    ]);
    expect(outcome).toMatch(/^store: drain did not finish within 1000 ms \(still at (consumer|partitions|postgres)\)$/);
  });
});
