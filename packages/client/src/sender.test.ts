import { createServer, type IncomingMessage, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { PulseboardApiError } from './errors.ts';
import { EventSender, type FailedOutcome, type SenderOptions } from './sender.ts';

interface Seen {
  key: string;
  encoding: string | undefined;
  body: string;
  at: number;
}

/** A stand-in gateway on loopback that answers from a script: the client's logic is what is under test here. */
async function gateway(answer: (seen: Seen, n: number) => { status: number; body?: unknown; headers?: Record<string, string> } | 'hang') {
  const seen: Seen[] = [];
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const encoding = req.headers['content-encoding'];
    const one: Seen = { key: String(req.headers['idempotency-key']), encoding, body: (encoding === 'gzip' ? gunzipSync(raw) : raw).toString(), at: Date.now() };
    seen.push(one);
    const a = answer(one, seen.length);
    if (a === 'hang') return;
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
    res.end(a.body === undefined ? '' : JSON.stringify(a.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  servers.push(server);
  return { url: `http://127.0.0.1:${port}`, seen };
}
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

const ok = { status: 201, body: { status: 'success' } };
const event = (i: number) => ({ type: 'metric' as const, name: `e${i}`, timestamp: '2026-01-01T00:00:00Z', attributes: { i } });
const fast = { baseMs: 5, maxMs: 20 };
const sender = (url: string, extra: Partial<SenderOptions> = {}) => new EventSender({ url, apiKey: 'evk_test', retry: fast, lingerMs: 5, ...extra });
const names = (body: string) => (JSON.parse(body) as { events: Array<{ name: string }> }).events.map((e) => e.name);

describe('EventSender', () => {
  it('sends batches of at most 100, each event once, and flush() drains', async () => {
    const gw = await gateway(() => ok);
    const s = sender(gw.url);
    for (let i = 0; i < 250; i++) await s.send(event(i));
    const stats = await s.flush();
    expect(stats).toMatchObject({ sent: 250, failed: 0, pending: 0 });
    expect(gw.seen.map((x) => names(x.body).length).sort((a, b) => b - a)).toEqual([100, 100, 50]);
    expect(new Set(gw.seen.flatMap((x) => names(x.body))).size).toBe(250);
  });

  it('retries a 503 and a network timeout with the same body and Idempotency-Key, and counts the batch once', async () => {
    const gw = await gateway((_, n) => (n === 1 ? { status: 503, body: { status: 'error', code: 'service_unavailable', message: 'x' }, headers: { 'retry-after': '0' } } : n === 2 ? 'hang' : ok));
    const retries: number[] = [];
    // 1 s: time enough for an answer on a busy machine, a timed-out attempt would be one retry more.
    const s = sender(gw.url, { requestTimeoutMs: 1000, hooks: { onRetry: (r) => retries.push(r.attempt) } });
    for (let i = 0; i < 10; i++) await s.send(event(i));
    const stats = await s.flush();
    expect(stats).toMatchObject({ sent: 10, failed: 0 });
    expect(retries.slice(0, 2)).toEqual([1, 2]);
    expect(new Set(gw.seen.map((x) => x.key)).size).toBe(1);
    expect(new Set(gw.seen.map((x) => x.body)).size).toBe(1);
  });

  it("waits at least a 429's Retry-After before the next attempt", async () => {
    const gw = await gateway((_, n) => (n === 1 ? { status: 429, body: { status: 'error', code: 'rate_limit_exceeded', message: 'slow down', retry_after: 1 }, headers: { 'retry-after': '1' } } : ok));
    const s = sender(gw.url);
    await s.send(event(1));
    await s.flush();
    expect(gw.seen).toHaveLength(2);
    expect(gw.seen[1]!.at - gw.seen[0]!.at).toBeGreaterThanOrEqual(990);
  });

  it.each([400, 401, 402, 403])('does not retry a %i: the batch fails with a typed error carrying code and details', async (status) => {
    const body = { status: 'error', code: status === 402 ? 'quota_exceeded' : 'validation_error', message: 'no', details: { 'events[0].name': ["can't be blank"] } };
    const gw = await gateway(() => ({ status, body }));
    const failed: FailedOutcome[] = [];
    const s = sender(gw.url, { hooks: { onFailed: (f) => failed.push(f) } });
    await s.send(event(1));
    expect(await s.flush()).toMatchObject({ sent: 0, failed: 1, retries: 0 });
    expect(gw.seen).toHaveLength(1);
    const error = failed[0]!.error as PulseboardApiError;
    expect(error).toBeInstanceOf(PulseboardApiError);
    expect(error).toMatchObject({ status, code: body.code, details: body.details });
    expect(failed[0]!.events).toEqual([event(1)]);
  });

  it('reads the API error shape ({"error": {...}}) too', async () => {
    const gw = await gateway(() => ({ status: 401, body: { error: { code: 'invalid_api_key', message: 'bad key' } } }));
    const failed: FailedOutcome[] = [];
    const s = sender(gw.url, { hooks: { onFailed: (f) => failed.push(f) } });
    await s.send(event(1));
    await s.flush();
    expect(failed[0]!.error).toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  it('gzips a body above the threshold and not one below', async () => {
    const gw = await gateway(() => ok);
    const s = sender(gw.url, { gzipAboveBytes: 2000 });
    await s.send(event(0));
    await s.flush();
    for (let i = 0; i < 100; i++) await s.send(event(i));
    await s.flush();
    expect(gw.seen.map((x) => x.encoding)).toEqual([undefined, 'gzip']);
    expect(names(gw.seen[1]!.body)).toHaveLength(100);
  });

  it("sends one event per request to /ingest with `endpoint: 'ingest'`, adding the project key", async () => {
    const gw = await gateway(() => ({ status: 201, body: { status: 'accepted' } }));
    const s = sender(gw.url, { endpoint: 'ingest', projectKey: 'p1' });
    for (let i = 0; i < 3; i++) await s.send(event(i));
    await s.flush();
    expect(gw.seen.map((x) => JSON.parse(x.body).project_key)).toEqual(['p1', 'p1', 'p1']);
    expect(new Set(gw.seen.map((x) => x.key)).size).toBe(3);
  });

  it("whenFull 'drop': refuses past the event bound, counts and reports the drops", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const gw = await gateway(() => ok);
    const dropped: string[] = [];
    const s = sender(gw.url, { maxBufferEvents: 5, whenFull: 'drop', batchSize: 5, hooks: { onDropped: (e, reason) => dropped.push(`${e.name}:${reason}`) }, fetch: async (...a) => (await gate, fetch(...a)) });
    const results = [];
    for (let i = 0; i < 8; i++) results.push(await s.send(event(i)));
    expect(results).toEqual([true, true, true, true, true, false, false, false]);
    expect(dropped).toEqual(['e5:buffer_full', 'e6:buffer_full', 'e7:buffer_full']);
    release();
    expect(await s.flush()).toMatchObject({ sent: 5, dropped: 3 });
  });

  it("whenFull 'wait': send() resolves only when there is room (by bytes), and nothing is lost", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const gw = await gateway(() => ok);
    const size = JSON.stringify(event(0)).length;
    const s = sender(gw.url, { maxBufferBytes: size * 3, batchSize: 3, fetch: async (...a) => (await gate, fetch(...a)) });
    for (let i = 0; i < 3; i++) await s.send(event(i));
    let fourth = false;
    const pending = s.send(event(3)).then(() => (fourth = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(fourth).toBe(false);
    expect(s.stats().pending).toBe(3);
    release();
    await pending;
    expect(await s.close()).toMatchObject({ sent: 4, dropped: 0, pending: 0 });
    await expect(s.send(event(9))).rejects.toThrow('closed');
  });

  it('gives a batch up after maxElapsedMs of retryable failures', async () => {
    const gw = await gateway(() => ({ status: 503, body: { status: 'error', code: 'service_unavailable', message: 'down' } }));
    const s = sender(gw.url, { retry: { ...fast, maxElapsedMs: 100 } });
    await s.send(event(1));
    const stats = await s.flush();
    expect(stats.failed).toBe(1);
    expect(stats.retries).toBeGreaterThan(0);
  });
});
