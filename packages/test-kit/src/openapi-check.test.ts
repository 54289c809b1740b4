import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPENAPI_DOCUMENT, openApiChecker, type HttpExchange } from './openapi-check.ts';

const document = JSON.parse(readFileSync(OPENAPI_DOCUMENT, 'utf8')) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

const rateHeaders = {
  'x-ratelimit-limit': '1000',
  'x-ratelimit-remaining': '999',
  'x-ratelimit-reset': '1764072000',
  'x-burst-limit': '100',
  'x-burst-remaining': '99',
  'x-burst-reset': '1764068460',
};

function webhookAccepted(overrides: Partial<HttpExchange> = {}): HttpExchange {
  return {
    method: 'POST',
    url: 'http://127.0.0.1:8080/api/v1/webhooks',
    requestHeaders: { 'content-type': 'application/json' },
    requestBody: JSON.stringify({ type: 'deployment', name: 'deploy', timestamp: '2026-01-02T03:04:05Z', attributes: {} }),
    status: 202,
    responseHeaders: new Headers({ 'content-type': 'application/json; charset=utf-8', 'content-length': '80', ...rateHeaders }),
    responseText: JSON.stringify({ status: 'accepted', event_id: 'evt_12', processed_at: '2026-01-02T03:04:06.000Z' }),
    ...overrides,
  };
}

describe('the OpenAPI check of test-kit request()', () => {
  const check = openApiChecker(document);

  it('passes an exchange the document describes', () => {
    expect(() => check(webhookAccepted())).not.toThrow();
  });

  it('fails once the documented response is removed from the document (the drift the check exists for)', () => {
    const trimmed = structuredClone(document);
    delete trimmed.paths['/api/v1/webhooks']!.post!.responses['202'];
    expect(() => openApiChecker(trimmed)(webhookAccepted())).toThrow(/status 202 is not documented/);
  });

  it('fails an undocumented header, a field the schema lacks, a wrong type, an undocumented route', () => {
    expect(() => check(webhookAccepted({ responseHeaders: new Headers({ 'content-type': 'application/json', ...rateHeaders, 'x-debug': '1' }) }))).toThrow(
      /header x-debug is not documented/,
    );
    expect(() =>
      check(webhookAccepted({ responseText: JSON.stringify({ status: 'accepted', event_id: 'evt_12', processed_at: '2026-01-02T03:04:06.000Z', extra: 1 }) })),
    ).toThrow(/does not match the response schema/);
    expect(() =>
      check(webhookAccepted({ responseText: JSON.stringify({ status: 'accepted', event_id: 12, processed_at: '2026-01-02T03:04:06.000Z' }) })),
    ).toThrow(/does not match the response schema/);
    expect(() => check(webhookAccepted({ url: 'http://127.0.0.1:8080/api/v1/nothing-here', status: 200 }))).toThrow(/no such operation/);
    expect(() => check(webhookAccepted({ url: 'http://127.0.0.1:8080/api/v1/nothing-here', status: 404, responseText: '' }))).not.toThrow();
  });

  it('fails when a request the document calls invalid is accepted, and passes when it is refused', () => {
    const bad = { requestBody: JSON.stringify({ type: 'nope' }) };
    expect(() => check(webhookAccepted(bad))).toThrow(/invalid by the document/);
    const refused = webhookAccepted({
      ...bad,
      status: 400,
      responseText: JSON.stringify({ error: { code: 'validation_error', message: 'Validation failed', details: { type: ['is not included in the list'] } } }),
    });
    expect(() => check(refused)).not.toThrow();
    const unknownQuery = {
      method: 'GET',
      url: 'http://127.0.0.1:8080/api/v1/tiles?q=x',
      requestBody: undefined,
      status: 200,
      responseHeaders: new Headers({ 'content-type': 'application/json' }),
      responseText: JSON.stringify({ data: [], meta: { current_page: 1, total_pages: 0, total_count: 0, per_page: 25 } }),
    };
    expect(() => check(webhookAccepted(unknownQuery))).toThrow(/unknown query parameter\(s\) q/);
  });
});
