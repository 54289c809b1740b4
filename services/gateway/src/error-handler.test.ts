import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { Counter, Registry } from 'prom-client';
import { ERROR_CATALOG, PulseboardError, type ErrorCode, type ErrorEntry } from '@pulseboard/contracts';
import { registerErrorHandler } from './error-handler.ts';

const codes = Object.keys(ERROR_CATALOG) as ErrorCode[];
const entry = (code: ErrorCode): ErrorEntry => ERROR_CATALOG[code];

/** The real handler on a bare fastify: one route of each shape throws whatever the test names. */
describe('the error handler renders every catalog code in both shapes (spec 7, CONTRACT Events)', () => {
  let app: FastifyInstance;
  let thrown: () => unknown;
  const rejected = new Counter({ name: 'test_rejected_total', help: 'x', labelNames: ['endpoint', 'reason'], registers: [new Registry()] });

  beforeAll(async () => {
    app = Fastify();
    registerErrorHandler(app, { rejected });
    app.post('/ingest', { config: { errorShape: 'ingest', rejectionsEndpoint: 'ingest' } }, async () => {
      throw thrown();
    });
    app.post('/api/v1/thing', async () => {
      throw thrown();
    });
    await app.ready();
  });
  afterAll(() => app.close());

  const call = async (path: string, error: () => unknown) => {
    thrown = error;
    const res = await app.inject({ method: 'POST', url: path, payload: {} });
    return { status: res.statusCode, body: res.json<Record<string, unknown>>(), retryAfter: res.headers['retry-after'] };
  };

  it.each(codes)('%s', async (code) => {
    const shown = entry(code).answeredAs ?? code;
    const message = entry(code).message;
    const retryAfter = entry(shown as ErrorCode).retryAfterSeconds;
    const ingest = await call('/ingest', () => new PulseboardError(code));
    expect(ingest).toEqual({
      status: entry(code).status,
      body: { status: 'error', code: shown, message },
      retryAfter: retryAfter === undefined ? undefined : String(retryAfter),
    });
    const envelope = await call('/api/v1/thing', () => new PulseboardError(code));
    expect(envelope).toEqual({
      status: entry(code).status,
      body: { error: { code: shown, message } },
      retryAfter: retryAfter === undefined ? undefined : String(retryAfter),
    });
  });

  it('shows details in both shapes and the extra fields of a refusal only in the ingest shape; its own headers win', async () => {
    const limited = () =>
      new PulseboardError('rate_limit_exceeded', {
        message: 'slow down',
        extra: { rate_limit: 3, current_usage: 3, retry_after: 42 },
        headers: { 'retry-after': 42 },
      });
    expect(await call('/ingest', limited)).toEqual({
      status: 429,
      body: { status: 'error', code: 'rate_limit_exceeded', message: 'slow down', rate_limit: 3, current_usage: 3, retry_after: 42 },
      retryAfter: '42',
    });
    expect(await call('/api/v1/thing', limited)).toEqual({
      status: 429,
      body: { error: { code: 'rate_limit_exceeded', message: 'slow down' } },
      retryAfter: '42',
    });
    const invalid = () => new PulseboardError('validation_error', { details: { type: ['is not included in the list'] } });
    expect((await call('/ingest', invalid)).body).toEqual({
      status: 'error',
      code: 'validation_error',
      message: 'Validation failed',
      details: { type: ['is not included in the list'] },
    });
    expect((await call('/api/v1/thing', invalid)).body).toEqual({
      error: { code: 'validation_error', message: 'Validation failed', details: { type: ['is not included in the list'] } },
    });
  });

  it('maps what is not a catalog error, and never shows internals', async () => {
    const cases: [() => unknown, number, string][] = [
      [() => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' }), 503, 'service_unavailable'],
      [() => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }), 503, 'service_unavailable'],
      [() => Object.assign(new Error('some client said so'), { retryable: true }), 503, 'service_unavailable'],
      [() => Object.assign(new Error('Body is too large'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }), 413, 'payload_too_large'],
      [() => Object.assign(new Error('incorrect header check'), { code: 'Z_DATA_ERROR' }), 400, 'bad_request'],
      [() => new SyntaxError('Unexpected token'), 400, 'bad_request'],
      [() => new TypeError("Cannot read properties of undefined (reading 'x') at /srv/app.js"), 500, 'internal_error'],
      [() => Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), { code: '23505' }), 500, 'internal_error'],
    ];
    for (const [error, status, code] of cases) {
      const res = await call('/api/v1/thing', error);
      expect([res.status, (res.body.error as { code: string }).code]).toEqual([status, code]);
      if (status === 500) expect((res.body.error as { message: string }).message).toBe('Internal server error');
      if (status === 503) expect(res.retryAfter).toBe('1');
    }
  });

  it('counts the refusals of routes that ask for it, by code', async () => {
    const before = (await rejected.get()).values.find((v) => v.labels.reason === 'quota_exceeded')?.value ?? 0;
    await call('/ingest', () => new PulseboardError('quota_exceeded'));
    await call('/api/v1/thing', () => new PulseboardError('quota_exceeded'));
    expect((await rejected.get()).values.find((v) => v.labels.reason === 'quota_exceeded' && v.labels.endpoint === 'ingest')?.value).toBe(before + 1);
  });
});
