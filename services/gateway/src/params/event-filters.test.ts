import { describe, expect, it } from 'vitest';
import { parseEventFilters } from './event-filters.ts';
import { parsePage } from './pagination.ts';

describe('parseEventFilters', () => {
  it('keeps each filter, normalising times to UTC and dropping repeated labels', () => {
    const parsed = parseEventFilters({
      type: 'error',
      source: "x' OR 1=1 --",
      label: ['a', 'b', 'a'],
      since: '2026-01-01',
      until: '2026-01-02T00:00:00+02:00',
    });
    expect(parsed).toEqual({
      ok: true,
      filters: {
        equal: [
          ['type', 'error'],
          ['source', "x' OR 1=1 --"],
        ],
        labels: ['a', 'b'],
        since: '2026-01-01T00:00:00.000Z',
        until: '2026-01-01T22:00:00.000Z',
      },
    });
  });

  it('ignores parameters that are not filters', () => {
    expect(parseEventFilters({ page: '2', per_page: '10', project_key: 'p', sort: 'x' })).toEqual({ ok: true, filters: { equal: [], labels: [] } });
  });

  it.each([
    ['2026-01-01T10:00:00Z', true],
    ['2026-01-01T10:00:00.123456Z', true],
    ['2026-01-01T10:00Z', true],
    ['2026-01-01T10:00:00-0500', true],
    ['2026-01-01', true],
    ['2026-01-01T10:00:00', false],
    ['01/02/2026', false],
    ['March 7, 2026', false],
    ['2026-13-01', false],
    ['1767225600', false],
    // Years Postgres (no year 0) or a four-digit ISO form cannot hold: 400, not the query's 500.
    ['0000-01-01T00:00:00Z', false],
    ['0001-01-01T00:30:00+01:00', false],
    ['0001-01-01T00:00:00Z', true],
    ['9999-12-31T23:59:59Z', true],
    ['9999-12-31T23:00:00-01:00', false],
  ])('accepts %s as a time: %s', (value, valid) => {
    expect(parseEventFilters({ since: value }).ok).toBe(valid);
  });
});

describe('parsePage', () => {
  it.each([
    [{}, { page: 1, perPage: 25, offset: 0 }],
    [
      { page: '3', per_page: '10' },
      { page: 3, perPage: 10, offset: 20 },
    ],
    [{ per_page: '101' }, { page: 1, perPage: 100, offset: 0 }],
    [
      { per_page: '100000000', page: '2' },
      { page: 2, perPage: 100, offset: 100 },
    ],
  ])('reads %j', (query, page) => {
    expect(parsePage(query)).toEqual({ ok: true, page });
  });

  it.each([{ page: '0' }, { page: '-2' }, { page: '1e3' }, { page: ['1', '2'] }, { per_page: '0' }, { per_page: '2.5' }, { page: '99999999999999999999' }])(
    'refuses %j',
    (query) => {
      const parsed = parsePage(query);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(Object.values(parsed.details).flat()).toEqual(['must be a positive integer']);
    },
  );
});
