import { createServer } from 'node:http';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { postJson, refusal, TargetRefused } from './safe-http.ts';

const strict = { allowLoopback: false, allowPrivate: false };

describe('outbound safety (SSRF)', () => {
  it('refuses loopback, private, link-local, metadata and mapped addresses; allows public ones', () => {
    for (const address of ['127.0.0.1', '::1', '10.0.0.5', '172.16.3.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1']) {
      expect(refusal(address, strict), address).toBeDefined();
    }
    for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111']) expect(refusal(address, strict), address).toBeUndefined();
    expect(refusal('127.0.0.1', { allowLoopback: true, allowPrivate: false })).toBeUndefined();
    expect(refusal('169.254.169.254', { allowLoopback: true, allowPrivate: false })).toBeDefined();
  });

  it('checks the address a name resolves to, the one connected to: localhost is refused when loopback is not allowed', async () => {
    const server = createServer((_req, res) => res.end('ok')).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    const options = { connectTimeoutMs: 1000, timeoutMs: 2000, maxResponseBytes: 1024 };
    try {
      await expect(postJson(`http://localhost:${port}/`, '{}', {}, { ...options, policy: strict })).rejects.toBeInstanceOf(TargetRefused);
      await expect(postJson(`http://127.0.0.1:${port}/`, '{}', {}, { ...options, policy: strict })).rejects.toBeInstanceOf(TargetRefused);
      expect((await postJson(`http://localhost:${port}/`, '{}', {}, { ...options, policy: { allowLoopback: true, allowPrivate: false } })).status).toBe(200);
    } finally {
      server.close();
    }
  });

  it('does not follow redirects and reads at most the response cap', async () => {
    const server = createServer((req, res) => (req.url === '/redirect' ? res.writeHead(302, { location: 'http://169.254.169.254/' }).end() : res.end('x'.repeat(1_000_000)))).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    const options = { connectTimeoutMs: 1000, timeoutMs: 2000, maxResponseBytes: 1024, policy: { allowLoopback: true, allowPrivate: false } };
    try {
      expect((await postJson(`http://127.0.0.1:${port}/redirect`, '{}', {}, options)).status).toBe(302);
      expect((await postJson(`http://127.0.0.1:${port}/big`, '{}', {}, options)).status).toBe(200);
    } finally {
      server.close();
    }
  });
});
