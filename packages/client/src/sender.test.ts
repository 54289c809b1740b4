import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { PulseboardApiError } from './errors.ts';
import { EventSender, type FailedOutcome, type SendFailure, type SenderOptions } from './sender.ts';

interface Seen {
  key: string;
  encoding: string | undefined;
  body: string;
  at: number;
}

/** A stand-in gateway on loopback that answers from a script: the client's logic is what is under test here. */
async function gateway(answer: (seen: Seen, n: number) => { status: number; body?: unknown; headers?: Record<string, string> } | 'hang') {
  const seen: Seen[] = [];
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
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
  };
  // A failure in serve is an unhandled rejection, which fails the test run.
  const server: Server = createServer((req, res) => void serve(req, res));
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
    const gw = await gateway((_, n) =>
      n === 1 ? { status: 503, body: { status: 'error', code: 'service_unavailable', message: 'x' }, headers: { 'retry-after': '0' } } : n === 2 ? 'hang' : ok,
    );
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
    const gw = await gateway((_, n) =>
      n === 1
        ? { status: 429, body: { status: 'error', code: 'rate_limit_exceeded', message: 'slow down', retry_after: 1 }, headers: { 'retry-after': '1' } }
        : ok,
    );
    const s = sender(gw.url);
    await s.send(event(1));
    await s.flush();
    expect(gw.seen).toHaveLength(2);
    expect(gw.seen[1]!.at - gw.seen[0]!.at).toBeGreaterThanOrEqual(990);
  });

  it.each([400, 401, 402, 403])('does not retry a %i: the batch fails with a typed error carrying code and details', async (status) => {
    const body = {
      status: 'error',
      code: status === 402 ? 'quota_exceeded' : 'validation_error',
      message: 'no',
      details: { 'events[0].name': ["can't be blank"] },
    };
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
    const s = sender(gw.url, {
      maxBufferEvents: 5,
      whenFull: 'drop',
      batchSize: 5,
      hooks: { onDropped: (e, reason) => dropped.push(`${e.name}:${reason}`) },
      fetch: async (...a) => (await gate, fetch(...a)),
    });
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
    const s = sender(gw.url, { retry: { ...fast, maxElapsedMs: 100 }, logger: false });
    await s.send(event(1));
    const stats = await s.flush();
    expect(stats.failed).toBe(1);
    expect(stats.retries).toBeGreaterThan(0);
  });

  describe('failures are never silent', () => {
    const refused = {
      status: 429,
      body: { status: 'error', code: 'rate_limit_exceeded', message: 'hourly request limit reached', retry_after: 3600 },
      headers: { 'retry-after': '3600' },
    };
    const logged = () => {
      const lines: string[] = [];
      return { lines, logger: { error: (line: string) => lines.push(line) } };
    };

    it('logs a 429 given up (Retry-After past maxElapsedMs) by default, and flush() returns the event with status and code', async () => {
      const gw = await gateway(() => refused);
      const log = logged();
      const s = sender(gw.url, { logger: log.logger });
      expect(await s.send(event(1))).toBe(true);
      const result = await s.flush();
      expect(result).toMatchObject({ sent: 0, failed: 1, failuresOmitted: 0 });
      expect(result.failures).toEqual([
        { event: event(1), reason: 'gave_up', status: 429, code: 'rate_limit_exceeded', message: 'hourly request limit reached' },
      ]);
      expect(log.lines).toEqual(['[pulseboard] 1 event not stored (given up after 1 attempt): 429 rate_limit_exceeded: hourly request limit reached']);
      // Reported once: the next flush starts empty.
      expect((await s.flush()).failures).toEqual([]);
    });

    it('writes to stderr through console when no logger is given', async () => {
      const gw = await gateway(() => ({ status: 400, body: { status: 'error', code: 'validation_error', message: 'bad event' } }));
      const original = console.error;
      const lines: unknown[][] = [];
      console.error = (...args: unknown[]) => void lines.push(args);
      try {
        const s = sender(gw.url);
        await s.send(event(1));
        expect((await s.close()).failures).toMatchObject([{ reason: 'refused', status: 400, code: 'validation_error' }]);
      } finally {
        console.error = original;
      }
      expect(lines).toEqual([['[pulseboard] 1 event not stored (refused): 400 validation_error: bad event']]);
    });

    it("gives each failure to an 'error' listener (then the logger stays quiet), off() removes it", async () => {
      const gw = await gateway(() => ({ status: 403, body: { error: { code: 'forbidden', message: 'no' } } }));
      const log = logged();
      const seen: SendFailure[] = [];
      const listener = (f: SendFailure) => seen.push(f);
      const s = sender(gw.url, { logger: log.logger, batchSize: 2 }).on('error', listener);
      await s.send(event(1));
      await s.send(event(2));
      await s.flush();
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ reason: 'refused', status: 403, code: 'forbidden', message: 'no', attempts: 1, events: [event(1), event(2)] });
      expect(seen[0]!.error).toBeInstanceOf(PulseboardApiError);
      expect(log.lines).toEqual([]);
      s.off('error', listener);
      await s.send(event(3));
      await s.flush();
      expect(seen).toHaveLength(1);
      expect(log.lines).toHaveLength(1);
    });

    it('reports an unreachable gateway as network_error after retries, and a hook still gets it (without a log line)', async () => {
      const log = logged();
      const failed: FailedOutcome[] = [];
      // A port nothing listens on (the gateway helper's server, closed).
      const gw = await gateway(() => ok);
      await new Promise((resolve) => servers.pop()!.close(resolve));
      const s = sender(gw.url, { logger: log.logger, retry: { ...fast, maxElapsedMs: 60 }, hooks: { onFailed: (f) => failed.push(f) } });
      await s.send(event(1));
      const result = await s.flush();
      expect(result.failures).toMatchObject([{ reason: 'gave_up', code: 'network_error' }]);
      expect(result.failures[0]).not.toHaveProperty('status');
      expect(failed).toHaveLength(1);
      expect(log.lines).toEqual([]);
    });

    it("reports drops (whenFull 'drop', too large) to the logger and in flush(); logger: false silences only the log", async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const gw = await gateway(() => ok);
      const log = logged();
      const s = sender(gw.url, { logger: log.logger, maxBufferEvents: 1, whenFull: 'drop', batchSize: 1, fetch: async (...a) => (await gate, fetch(...a)) });
      expect(await s.send(event(1))).toBe(true);
      expect(await s.send(event(2))).toBe(false);
      release();
      const result = await s.flush();
      expect(result).toMatchObject({ sent: 1, dropped: 1 });
      expect(result.failures).toMatchObject([{ event: event(2), reason: 'dropped', code: 'buffer_full' }]);
      expect(log.lines).toHaveLength(1);
      expect(log.lines[0]).toMatch(/^\[pulseboard\] 1 event not stored \(dropped\): buffer_full: /);

      const quiet = sender(gw.url, { logger: false, maxBufferBytes: 10 });
      expect(await quiet.send(event(3))).toBe(false);
      expect((await quiet.flush()).failures).toMatchObject([{ reason: 'dropped', code: 'too_large' }]);
    });

    it('logs one line a second at most, and what it left out when flush() returns', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const gw = await gateway(() => ok);
      const log = logged();
      const s = sender(gw.url, { logger: log.logger, maxBufferEvents: 1, whenFull: 'drop', batchSize: 1, fetch: async (...a) => (await gate, fetch(...a)) });
      await s.send(event(0));
      for (let i = 1; i <= 500; i++) expect(await s.send(event(i))).toBe(false);
      expect(log.lines).toHaveLength(1);
      release();
      const result = await s.flush();
      expect(result.failures).toHaveLength(500);
      expect(log.lines).toEqual([
        expect.stringMatching(/^\[pulseboard\] 1 event not stored \(dropped\)/),
        '[pulseboard] 499 more events not stored (the log says one line a second; flush() returns each)',
      ]);
    });

    it('keeps at most 1,000 failures between flushes and counts the rest', async () => {
      const gw = await gateway(() => ({ status: 400, body: { status: 'error', code: 'validation_error', message: 'no' } }));
      const s = sender(gw.url, { logger: false });
      for (let i = 0; i < 1050; i++) await s.send(event(i));
      const result = await s.flush();
      expect(result).toMatchObject({ failed: 1050, failuresOmitted: 50 });
      expect(result.failures).toHaveLength(1000);
    });
  });
});
