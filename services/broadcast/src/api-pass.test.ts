import { describe, expect, it } from 'vitest';
import { passThroughPath } from './api-pass.ts';

describe("broadcast's pass-through paths", () => {
  it("forwards the dashboard's routes, rebuilt from their checked segments, query as given", () => {
    expect(passThroughPath('GET', '/api/v1/tiles?project_key=demo&per_page=100&page=1')).toBe('/api/v1/tiles?project_key=demo&per_page=100&page=1');
    expect(passThroughPath('POST', '/api/v1/tiles/preview')).toBe('/api/v1/tiles/preview');
    expect(passThroughPath('PUT', '/api/v1/tiles/42')).toBe('/api/v1/tiles/42');
    expect(passThroughPath('POST', '/api/v1/tiles/42/replay')).toBe('/api/v1/tiles/42/replay');
    expect(passThroughPath('GET', '/api/v1/tiles/42/history?per_page=1')).toBe('/api/v1/tiles/42/history?per_page=1');
    expect(passThroughPath('POST', '/api/v1/notifications/7/send')).toBe('/api/v1/notifications/7/send');
    expect(passThroughPath('GET', '/api/v1/notifications/7/deliveries?per_page=20')).toBe('/api/v1/notifications/7/deliveries?per_page=20');
    expect(passThroughPath('GET', '/api/v1/projects/demo/refusals')).toBe('/api/v1/projects/demo/refusals');
  });

  it('refuses climbing, encoded dots and slashes, empty segments, and every route the dashboard does not use', () => {
    for (const url of [
      '/api/v1/../../metrics',
      '/api/v1/%2e%2e/%2e%2e/metrics',
      '/api/v1/%2E%2E/admin/accounts',
      '/api/v1/tiles/..',
      '/api/v1/tiles/%2e',
      '/api/v1/tiles/1%2f..%2f..%2fmetrics',
      '/api/v1/tiles/1%5c..',
      '/api/v1//tiles',
      '/api/v1/tiles/',
      '/api/v1/tiles/%252e%252e',
      '/api/v1/tiles/%zz',
      '/api/v1/admin/accounts',
      '/api/v1/admin/projects/demo',
      '/api/v1/openapi.json',
      '/api/v1/projects',
      '/api/v1/tokens',
      '/api/v1/events',
      '/metrics',
      '/readyz',
      '/docs',
    ]) {
      expect(passThroughPath('GET', url), url).toBeUndefined();
    }
    // A route the dashboard uses, with a method it does not.
    expect(passThroughPath('DELETE', '/api/v1/tiles')).toBeUndefined();
    expect(passThroughPath('POST', '/api/v1/tiles/1/history')).toBeUndefined();
    expect(passThroughPath('PUT', '/api/v1/projects/demo/refusals')).toBeUndefined();
    // The project is read (the header's freshness), never changed from the dashboard.
    expect(passThroughPath('GET', '/api/v1/projects/demo')).toBe('/api/v1/projects/demo');
    expect(passThroughPath('PUT', '/api/v1/projects/demo')).toBeUndefined();
  });
});
