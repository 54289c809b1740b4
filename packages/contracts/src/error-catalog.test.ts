import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG, isErrorCode, isRetryable, publicFace, PulseboardError, type ErrorCode, type ErrorEntry } from './error-catalog.ts';

const codes = Object.keys(ERROR_CATALOG) as ErrorCode[];
const entry = (code: ErrorCode): ErrorEntry => ERROR_CATALOG[code];

describe('the error catalog', () => {
  it('answers every internal code as a public code of the same status, never as another internal one', () => {
    for (const code of codes) {
      const shown = entry(code).answeredAs;
      if (shown === undefined) continue;
      expect(isErrorCode(shown), `${code} -> ${shown}`).toBe(true);
      expect(entry(shown as ErrorCode).answeredAs, `${code} -> ${shown}`).toBeUndefined();
      expect(entry(shown as ErrorCode).status, `${code} -> ${shown}`).toBe(entry(code).status);
    }
  });

  it('names codes in snake_case, statuses are HTTP error statuses, and every 503 says when to retry', () => {
    for (const code of codes) {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(entry(code).status).toBeGreaterThanOrEqual(400);
      expect(entry(code).status).toBeLessThan(600);
      if (entry(code).status === 503) expect(publicFace(new PulseboardError(code)).retryAfterSeconds, code).toBe(1);
    }
  });

  it('builds errors whose status and retryability come from the catalog, and which are Errors', () => {
    for (const code of codes) {
      const error = new PulseboardError(code);
      expect(error).toBeInstanceOf(Error);
      expect(error).toBeInstanceOf(PulseboardError);
      expect([error.code, error.status, error.retryable, error.message]).toEqual([code, entry(code).status, entry(code).retryable, entry(code).message]);
      expect(isRetryable(error)).toBe(entry(code).retryable);
      expect(String(error)).toBe(`PulseboardError: ${entry(code).message}`);
    }
  });

  it('captures a stack only for server-side failures (expected refusals stay cheap)', () => {
    expect(new PulseboardError('rate_limit_exceeded').stack).toBeUndefined();
    expect(new PulseboardError('kafka_unavailable').stack).toContain('error-catalog.test.ts');
  });

  it('shows internal codes as their public code and the catalog message, never their own text', () => {
    const error = new PulseboardError('kafka_message_too_large', { message: 'broker said MESSAGE_TOO_LARGE on partition 3' });
    expect(publicFace(error)).toEqual({ code: 'payload_too_large', message: 'The event is too large for the event log', retryAfterSeconds: undefined });
    expect(publicFace(new PulseboardError('forbidden', { message: 'not yours' }))).toEqual({
      code: 'forbidden',
      message: 'not yours',
      retryAfterSeconds: undefined,
    });
  });

  it('gives the codes kafka-kit and the store throw the status and retryability their callers rely on', () => {
    const cause = new Error('ECONNREFUSED');
    const error = new PulseboardError('kafka_unavailable', { message: 'the event log is unavailable', cause });
    expect([error.code, error.status, error.retryable, error.message, error.cause]).toEqual([
      'kafka_unavailable',
      503,
      true,
      'the event log is unavailable',
      cause,
    ]);
    for (const [code, status, retryable] of [
      ['producer_stopped', 503, true],
      ['kafka_unavailable', 503, true],
      ['kafka_message_too_large', 413, false],
      ['kafka_rejected', 500, false],
      ['database_unavailable', 503, true],
      ['rejected_by_database', 500, false],
    ] as const) {
      const e = new PulseboardError(code);
      expect([e.status, e.retryable, isRetryable(e)], code).toEqual([status, retryable, retryable]);
    }
  });
  it('tells catalog codes from other codes on errors (pg, node, fastify)', () => {
    for (const code of ['23505', 'ECONNREFUSED', 'FST_ERR_CTP_BODY_TOO_LARGE', 'constructor', 'toString', undefined, 42]) expect(isErrorCode(code)).toBe(false);
  });
});
