import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, readTopic, request, topicMessageCount } from '@pulseboard/test-kit';
import { ingestTestGateway, type IngestTestGateway, type Project } from '../test/ingest-test-kit.ts';

const MiB = 1024 * 1024;

/** A valid envelope padded to `bytes` of JSON. */
function paddedEvent(projectKey: string, bytes: number): string {
  const base = JSON.stringify(envelope(projectKey, { attributes: { pad: '' } }));
  return JSON.stringify(envelope(projectKey, { attributes: { pad: 'x'.repeat(bytes - base.length) } }));
}

describe('bad input on the ingest endpoints (413, gzip, 415, 400, 404) and a fuzz run', () => {
  let gw: IngestTestGateway;
  let project: Project;

  beforeAll(async () => {
    gw = await ingestTestGateway();
    project = await gw.provision({ burstLimit: 1_000_000, hourlyLimit: 1_000_000, monthlyQuota: 1_000_000 });
  });
  afterAll(async () => {
    await gw?.stop();
  });

  const post = (path: string, rawBody: string | Uint8Array, headers: Record<string, string> = {}) =>
    request(`${gw.url}${path}`, { method: 'POST', token: project.apiKey, rawBody, headers: { 'content-type': 'application/json', ...headers } });

  it('accepts a body of exactly 1 MiB (an event or a batch of 100) and answers 413 payload_too_large above it (ingest shape on /ingest, envelope elsewhere)', async () => {
    expect((await post('/ingest', paddedEvent(project.projectKey, MiB))).status).toBe(201);
    const tooLarge = await gw.expectProducedNothing(() => post('/ingest', paddedEvent(project.projectKey, MiB + 1)));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toEqual({ status: 'error', code: 'payload_too_large', message: expect.any(String) });
    // A batch of 100 events that fills the 1 MiB: more than a shared produce request may hold, so it goes alone.
    const events = Array.from({ length: 100 }, () => JSON.parse(paddedEvent(project.projectKey, Math.floor(MiB / 100) - 20)));
    const fullBatch = JSON.stringify({ events });
    expect(fullBatch.length).toBeGreaterThan(MiB - 2000);
    expect(fullBatch.length).toBeLessThanOrEqual(MiB);
    const batch = await post('/api/v1/webhooks', fullBatch);
    expect(batch.status).toBe(202);
    expect(batch.body.count).toBe(100);

    const webhook = await post('/api/v1/webhooks', paddedEvent(project.projectKey, MiB + 1));
    expect(webhook.status).toBe(413);
    expect(webhook.body).toEqual({ error: { code: 'payload_too_large', message: expect.any(String) } });
  });

  it('refuses a body of more than BODY_MAX_JSON_VALUES values (100,000) with 413 before parsing it, and a batch far over 100 events without validating each', async () => {
    const numbers = (n: number) => `{"events":[${Array(n).fill('1').join(',')}]}`;
    for (const path of ['/ingest', '/api/v1/webhooks']) {
      const huge = await gw.expectProducedNothing(() => post(path, numbers(MiB / 2 - 20)));
      expect(huge.status).toBe(413);
      const code = path === '/ingest' ? huge.body.code : huge.body.error.code;
      expect(code).toBe('payload_too_large');
      // Gzip does not get around it: the limit applies to the decoded text.
      expect((await post(path, gzipSync(`[${Array(200_000).fill('{}').join(',')}]`), { 'content-encoding': 'gzip' })).status).toBe(413);
    }
    // A value count just under the limit is read and validated as usual.
    const events = Array.from({ length: 100 }, () => envelope(project.projectKey, { attributes: { samples: Array(900).fill(0) } }));
    expect((await post('/api/v1/webhooks', JSON.stringify({ events }))).status).toBe(202);
    // 50,000 events: only the length is reported (each event's details would be 50,000 entries).
    const many = await post('/api/v1/webhooks', numbers(50_000));
    expect(many.status).toBe(400);
    expect(many.body.error.details).toEqual({ events: ['is too long (maximum is 100 items)'] });
  });

  it('accepts Content-Encoding: gzip, and applies the 1 MiB limit to the decoded size', async () => {
    const zipped = gzipSync(JSON.stringify(envelope(project.projectKey)));
    const ok = await post('/ingest', zipped, { 'content-encoding': 'gzip' });
    expect(ok.status).toBe(201);
    const batch = gzipSync(JSON.stringify({ events: [envelope(project.projectKey), envelope(project.projectKey)] }));
    const okBatch = await post('/api/v1/webhooks', batch, { 'content-encoding': 'gzip' });
    expect(okBatch.status).toBe(202);

    // About 1 KiB on the wire, just over 1 MiB decoded.
    const bomb = gzipSync(paddedEvent(project.projectKey, MiB + 1));
    expect(bomb.length).toBeLessThan(MiB / 100);
    const refused = await gw.expectProducedNothing(() => post('/ingest', bomb, { 'content-encoding': 'gzip' }));
    expect(refused.status).toBe(413);
    expect(refused.body.code).toBe('payload_too_large');

    const broken = await post('/ingest', Buffer.from('definitely not gzip'), { 'content-encoding': 'gzip' });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ status: 'error', code: 'bad_request', message: expect.any(String) });
    const brotli = await post('/api/v1/webhooks', zipped, { 'content-encoding': 'br' });
    expect(brotli.status).toBe(415);
    expect(brotli.body.error.code).toBe('unsupported_media_type');
  });

  it('answers 415 unsupported_media_type to a body that is not declared JSON', async () => {
    const body = JSON.stringify(envelope(project.projectKey));
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const ingest = await post('/ingest', body, { 'content-type': contentType });
      expect(ingest.status).toBe(415);
      expect(ingest.body).toEqual({ status: 'error', code: 'unsupported_media_type', message: expect.any(String) });
      const webhook = await post('/api/v1/webhooks', body, { 'content-type': contentType });
      expect(webhook.status).toBe(415);
      expect(webhook.body).toEqual({ error: { code: 'unsupported_media_type', message: expect.any(String) } });
    }
    const charset = await post('/ingest', body, { 'content-type': 'application/json; charset=utf-8' });
    expect(charset.status).toBe(201);
  });

  it('answers 400 bad_request to malformed or empty JSON', async () => {
    for (const raw of ['{"type": "deployment",', '{bad json}', 'undefined', '']) {
      const ingest = await post('/ingest', raw);
      expect(ingest.status).toBe(400);
      expect(ingest.body).toEqual({ status: 'error', code: 'bad_request', message: expect.any(String) });
      const webhook = await post('/api/v1/webhooks', raw);
      expect(webhook.status).toBe(400);
      expect(webhook.body).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
    }
  });

  it('refuses NUL and unpaired surrogates written as \\u escapes (plain, gzip, in a batch) and accepts other escapes', async () => {
    // Hand-written JSON text: the escapes must reach the gateway as escapes, as a client would send them.
    const text = (name: string, attributes = '{"ok":true}') =>
      `{"project_key":"${project.projectKey}","type":"metric","name":"${name}","timestamp":"${new Date().toISOString()}","attributes":${attributes}}`;
    const message = ['contains a NUL character or an unpaired surrogate'];

    const nul = await gw.expectProducedNothing(() => post('/ingest', text('a\\u0000b')));
    expect(nul.status).toBe(400);
    expect(nul.body.details).toEqual({ name: message });
    const zipped = await gw.expectProducedNothing(() => post('/ingest', gzipSync(text('ok', '{"deep":["\\ud800"]}')), { 'content-encoding': 'gzip' }));
    expect(zipped.status).toBe(400);
    expect(zipped.body.details).toEqual({ attributes: message });
    const batch = await gw.expectProducedNothing(() => post('/api/v1/webhooks', `{"events":[${text('fine')},${text('ok', '{"k\\u0000":1}')}]}`));
    expect(batch.status).toBe(400);
    expect(batch.body.error.details).toEqual({ 'events[1].attributes': message });

    // Escapes of storable characters (a paired surrogate among them) are fine, and arrive decoded.
    const accepted = await post('/ingest', text('caf\\u00e9 \\ud83d\\udca5'));
    expect(accepted.status).toBe(201);
    const produced = (await readTopic(gw.topic)).map((m) => JSON.parse(m.value!) as { id: number; name: string });
    expect(produced.find((e) => e.id === accepted.body.event_id)?.name).toBe('café 💥');
  });

  it('refuses attributes nested deeper than 32 levels, and numbers beyond the finite (1e400), with 400 details.attributes on every ingest path, never a 500', async () => {
    // Hand-written JSON text: JSON.stringify cannot write 1e400 (it is Infinity once parsed), nor 5000 levels.
    const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{"leaf":true}${'}'.repeat(levels - 1)}`;
    const event = (attributes: string, withKey = true) =>
      `{${withKey ? `"project_key":"${project.projectKey}",` : ''}"type":"metric","name":"cpu_usage","timestamp":"${new Date().toISOString()}","attributes":${attributes}}`;
    const tooDeep = ['is nested too deeply (maximum is 32 levels)'];
    const notFinite = ['must contain only finite numbers'];
    for (const [attributes, message] of [
      [nested(33), tooDeep],
      [nested(5000), tooDeep],
      [`[${'['.repeat(90_000)}${']'.repeat(90_000)}]`, ['must be an object', ...tooDeep]],
      ['{"value":1e400}', notFinite],
      [`{"deep":${nested(20).replace('true', '-1E+999')}}`, notFinite],
    ] as const) {
      const ingest = await gw.expectProducedNothing(() => post('/ingest', event(attributes)));
      expect(ingest.status).toBe(400);
      expect(ingest.body).toEqual({ status: 'error', code: 'validation_error', message: expect.any(String), details: { attributes: message } });
      const single = await post('/api/v1/webhooks', event(attributes, false));
      expect(single.status).toBe(400);
      expect(single.body).toEqual({ error: { code: 'validation_error', message: expect.any(String), details: { attributes: message } } });
      const batch = await gw.expectProducedNothing(() =>
        post('/api/v1/webhooks', `{"events":[${event('{"ok":1}')},${event(attributes)}]}`, { 'idempotency-key': `deep-${Math.random()}` }),
      );
      expect(batch.status).toBe(400);
      expect(batch.body.error.details).toEqual({ 'events[1].attributes': message });
    }
    // 32 levels and the largest finite numbers are fine, and stored as sent.
    const accepted = await post('/ingest', event(`{"max":1.7976931348623157e308,"tiny":5e-324,"deep":${nested(31)}}`));
    expect(accepted.status).toBe(201);
    const produced = (await readTopic(gw.topic)).map((m) => JSON.parse(m.value!) as { id: number; attributes: { max: number; tiny: number } });
    expect(produced.find((e) => e.id === accepted.body.event_id)?.attributes).toMatchObject({ max: Number.MAX_VALUE, tiny: Number.MIN_VALUE });
    // Nesting does not get around the body limit: over 1 MiB is 413 before anything looks inside.
    const huge = event(`{"a":${'['.repeat(MiB / 2)}${']'.repeat(MiB / 2)}}`);
    const refused = await gw.expectProducedNothing(() => post('/ingest', huge));
    expect(refused.status).toBe(413);
    expect(refused.body.code).toBe('payload_too_large');
  });

  it('answers 404 not_found in the envelope shape for unknown routes', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/nothing-here'],
      ['POST', '/api/v1/webhook'],
      ['GET', '/api/v2/health'],
      ['DELETE', '/api/v1/webhooks'],
    ] as const) {
      const res = await request(`${gw.url}${path}`, { method, token: project.apiKey });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    }
  });

  it('survives thousands of malformed bodies: never a 5xx, and nothing produced for any refused request', async () => {
    const random = seeded(20240601);
    const cases = Array.from({ length: 3000 }, (_, i) => fuzzCase(random, project.projectKey, i));
    const before = await topicMessageCount(gw.topic);
    const statuses = new Map<number, number>();
    let accepted = 0;
    for (let i = 0; i < cases.length; i += 50) {
      const results = await Promise.all(
        cases.slice(i, i + 50).map(async (c) => {
          const res = await request(`${gw.url}${c.path}`, { method: 'POST', token: project.apiKey, rawBody: c.body, headers: c.headers });
          return { res, c };
        }),
      );
      for (const { res, c } of results) {
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500)
          throw new Error(
            `${res.status} for ${c.path} ${JSON.stringify(c.headers)} ${Buffer.from(c.body).toString('utf8').slice(0, 300)}: ${JSON.stringify(res.body)}`,
          );
        if (res.status === 201) accepted += 1;
        if (res.status === 202) accepted += (res.body.count as number | undefined) ?? 1;
        // Every refusal is a documented shape.
        if (res.status >= 400) expect(c.path === '/ingest' ? res.body.code : res.body.error?.code).toEqual(expect.any(String));
      }
    }
    expect(await topicMessageCount(gw.topic)).toBe(before + accepted);
    // The fuzzer really does produce malformed input, of several kinds.
    expect(statuses.get(400)).toBeGreaterThan(2000);
    expect([...statuses.keys()].filter((s) => s >= 400).length).toBeGreaterThanOrEqual(3);
  });
});

/** A small deterministic PRNG (mulberry32), so a failing case can be replayed. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NASTY_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  -0,
  12345678901234567000,
  '',
  ' ',
  '\u0000',
  '\ud800',
  '💥'.repeat(50),
  'x'.repeat(5000),
  [],
  [null],
  {},
  { $ref: '#' },
  { __proto__: { polluted: true } },
  { constructor: { prototype: { polluted: true } } },
  '2024-02-30T25:61:61Z',
  '1970-01-01T00:00:00Z',
  'deployment',
  ['a', 1],
  Array.from({ length: 60 }, () => 'l'),
];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function deep(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

function fuzzCase(random: () => number, projectKey: string, i: number): { path: string; body: string | Uint8Array; headers: Record<string, string> } {
  const path = random() < 0.5 ? '/ingest' : '/api/v1/webhooks';
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const valid = envelope(projectKey, { attributes: { i } }) as Record<string, unknown>;
  const fields = ['project_key', 'type', 'name', 'timestamp', 'attributes', 'severity', 'channel', 'correlation_id', 'source', 'labels', 'events'];
  const kind = Math.floor(random() * 10);
  let text: string;
  switch (kind) {
    case 0: // a field replaced by a nasty value
    case 1: {
      const broken: Record<string, unknown> = { ...valid };
      for (let n = 0; n < 1 + Math.floor(random() * 3); n++) broken[pick(random, fields)] = pick(random, NASTY_VALUES);
      broken.type = random() < 0.7 ? pick(random, NASTY_VALUES) : broken.type;
      text = JSON.stringify(broken);
      break;
    }
    case 2: {
      // required fields dropped
      const broken: Record<string, unknown> = { ...valid };
      delete broken[pick(random, ['type', 'name', 'timestamp', 'attributes'])];
      text = JSON.stringify(broken);
      break;
    }
    case 3: // truncated JSON
      text = JSON.stringify(valid).slice(0, Math.floor(random() * 80));
      break;
    case 4: // random bytes
      text = Buffer.from(Array.from({ length: 1 + Math.floor(random() * 200) }, () => Math.floor(random() * 256))).toString('latin1');
      break;
    case 5: // batches with bad members
      text = JSON.stringify({
        events: Array.from({ length: Math.floor(random() * 120) }, () => (random() < 0.3 ? valid : pick(random, NASTY_VALUES))).concat([
          { ...valid, type: 'nope' },
        ]),
      });
      break;
    case 6: // deep nesting
      text = JSON.stringify({ ...valid, type: 'bogus', attributes: deep(200 + Math.floor(random() * 800)) });
      break;
    case 7: // JSON that is not an object
      text = JSON.stringify(pick(random, [null, 1, 'string', [valid], true, []]));
      break;
    case 8: // wrong or odd content types
      text = JSON.stringify(valid);
      headers['content-type'] = pick(random, ['text/plain', 'application/octet-stream', 'multipart/form-data; boundary=x', 'application/jsonx', 'json']);
      break;
    default: // garbage claiming to be gzip
      headers['content-encoding'] = pick(random, ['gzip', 'deflate', 'compress', 'gzip, br']);
      text = JSON.stringify({ ...valid, type: 42 });
      break;
  }
  return { path, body: text, headers };
}
