import { createServer } from 'node:http';
import { once } from 'node:events';
import { createServer as tcpServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseAllowedTargets, TARGET_REFUSED_REASON } from '@pulseboard/contracts';
import { COULD_NOT_CONNECT, operatorDetail, publicReason } from './delivery-errors.ts';
import { postJson, refused, TargetRefused } from './safe-http.ts';

const strict = { allowPrivate: false };
/** The policy of a test whose receiver listens on loopback: that exact address and port only (NOTIFY_ALLOW_TARGETS). */
const only = (...targets: string[]) => ({ allowPrivate: false, allowTargets: parseAllowedTargets(targets.join(',')) });

describe('outbound safety (SSRF)', () => {
  // Every form is in packages/contracts/src/outbound-address.test.ts; here, that the connection path uses it.
  it('refuses loopback, private, link-local, metadata and embedded-IPv4 addresses; allows public ones', () => {
    for (const address of [
      '127.0.0.1',
      '::1',
      '10.0.0.5',
      '169.254.169.254',
      '0.0.0.0',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::7f00:1',
      '2002:7f00:1::',
    ]) {
      expect(refused(address, strict), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111']) expect(refused(address, strict), address).toBe(false);
    expect(refused('127.0.0.1', only('127.0.0.1:4567'), 4567)).toBe(false);
    expect(refused('127.0.0.1', only('127.0.0.1:4567'), 4568)).toBe(true);
    // A name resolved to it: judged without a port, never an exact target.
    expect(refused('127.0.0.1', only('127.0.0.1:4567'))).toBe(true);
    expect(refused('169.254.169.254', { allowPrivate: true })).toBe(true);
  });

  it('refuses IPv4 hidden in IPv6 literals before connecting, with a reason that names no address', async () => {
    const options = { connectTimeoutMs: 1000, timeoutMs: 2000, maxResponseBytes: 1024, policy: strict };
    for (const url of [
      'http://[::7f00:1]:18931/',
      'http://[::127.0.0.1]/',
      'http://[2002:7f00:1::]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://0x7f.1/',
    ]) {
      const error = await postJson(url, '{}', {}, options).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, url).toBeInstanceOf(TargetRefused);
      expect(publicReason(error), url).toBe(TARGET_REFUSED_REASON);
      expect(publicReason(error), url).not.toMatch(/\d+\.\d+|::|18931/);
    }
  });

  it('records one generic reason for a closed port, a port that closes the connection and one that answers something else than HTTP: never the address or port; the operator log keeps the detail', async () => {
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    server.close();
    await once(server, 'close');
    // As Postgres or Kafka would to an HTTP request: the connection accepted and closed, or answered in another protocol (Redis).
    const closing = tcpServer((socket) => socket.destroy()).listen(0, '127.0.0.1');
    const redisLike = tcpServer((socket) => socket.end('-ERR unknown command\r\n')).listen(0, '127.0.0.1');
    await Promise.all([once(closing, 'listening'), once(redisLike, 'listening')]);
    const portOf = (s: typeof closing) => (s.address() as { port: number }).port;
    const loopback = {
      connectTimeoutMs: 1000,
      timeoutMs: 2000,
      maxResponseBytes: 1024,
      policy: only(`127.0.0.1:${port}`, `[::1]:${port}`, `127.0.0.1:${portOf(closing)}`, `127.0.0.1:${portOf(redisLike)}`),
    };
    try {
      for (const url of [
        `http://127.0.0.1:${port}/`,
        `http://[::1]:${port}/`,
        `http://127.0.0.1:${portOf(closing)}/`,
        `http://127.0.0.1:${portOf(redisLike)}/`,
      ]) {
        const error = await postJson(url, '{}', {}, loopback).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(publicReason(error), url).toBe(COULD_NOT_CONNECT);
        expect(publicReason(error), url).toContain('could not connect');
      }
      const refusedOne = await postJson(`http://127.0.0.1:${port}/`, '{}', {}, loopback).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(operatorDetail(refusedOne)).toContain(String(port));
    } finally {
      closing.close();
      redisLike.close();
    }
    const unresolved = await postJson('http://no-such-host.invalid/', '{}', {}, loopback).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(publicReason(unresolved)).toBe('the target host name did not resolve');
    expect(publicReason(unresolved)).not.toContain('invalid');
    const byName = await postJson(`http://localhost:${port}/`, '{}', {}, { ...loopback, policy: strict }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(publicReason(byName)).toBe(TARGET_REFUSED_REASON);
    expect(operatorDetail(byName)).toMatch(/localhost resolves to/);
  });

  it('never sends a user name or password of the URL: refused before connecting (no Authorization header)', async () => {
    let requests = 0;
    const server = createServer((_req, res) => (requests++, res.end('ok'))).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    try {
      const error = await postJson(
        `http://user:pass@127.0.0.1:${port}/`,
        '{}',
        {},
        { connectTimeoutMs: 1000, timeoutMs: 2000, maxResponseBytes: 1024, policy: only(`127.0.0.1:${port}`) },
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TargetRefused);
      expect(publicReason(error)).toBe('the target URL holds a user name or password');
      expect(requests).toBe(0);
    } finally {
      server.close();
    }
  });

  it('checks the address a name resolves to, the one connected to: localhost is refused even when its address and port are an allowed target', async () => {
    const server = createServer((_req, res) => res.end('ok')).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    const options = { connectTimeoutMs: 1000, timeoutMs: 2000, maxResponseBytes: 1024 };
    try {
      await expect(postJson(`http://localhost:${port}/`, '{}', {}, { ...options, policy: strict })).rejects.toBeInstanceOf(TargetRefused);
      await expect(postJson(`http://127.0.0.1:${port}/`, '{}', {}, { ...options, policy: strict })).rejects.toBeInstanceOf(TargetRefused);
      await expect(postJson(`http://localhost:${port}/`, '{}', {}, { ...options, policy: only(`127.0.0.1:${port}`, `[::1]:${port}`) })).rejects.toBeInstanceOf(
        TargetRefused,
      );
      expect((await postJson(`http://127.0.0.1:${port}/`, '{}', {}, { ...options, policy: only(`127.0.0.1:${port}`) })).status).toBe(200);
    } finally {
      server.close();
    }
  });

  it('reuses a kept-alive connection without arming a connect timer or adding listeners per delivery', async () => {
    let connections = 0;
    const server = createServer((req, res) => req.resume().on('end', () => res.end('ok'))).listen(0, '127.0.0.1');
    server.on('connection', () => connections++);
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    try {
      const options = { connectTimeoutMs: 60_000, timeoutMs: 60_000, maxResponseBytes: 1024, policy: only(`127.0.0.1:${port}`) };
      await postJson(`http://127.0.0.1:${port}/`, '{}', {}, options);
      const before = timers();
      for (let i = 0; i < 30; i++) expect((await postJson(`http://127.0.0.1:${port}/`, '{}', {}, options)).status).toBe(200);
      await new Promise((resolve) => setImmediate(resolve));
      expect(connections).toBe(1);
      // Each delivery on the same socket armed a 60 s connect timer before (30 more), and 30 more 'close' listeners.
      expect(timers() - before).toBeLessThan(5);
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      server.closeAllConnections();
      server.close();
    }
  });

  it('does not follow redirects and reads at most the response cap', async () => {
    const server = createServer((req, res) =>
      req.url === '/redirect' ? res.writeHead(302, { location: 'http://169.254.169.254/' }).end() : res.end('x'.repeat(1_000_000)),
    ).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    const options = { connectTimeoutMs: 1000, timeoutMs: 2000, maxResponseBytes: 1024, policy: only(`127.0.0.1:${port}`) };
    try {
      expect((await postJson(`http://127.0.0.1:${port}/redirect`, '{}', {}, options)).status).toBe(302);
      expect((await postJson(`http://127.0.0.1:${port}/big`, '{}', {}, options)).status).toBe(200);
    } finally {
      server.close();
    }
  });
});
