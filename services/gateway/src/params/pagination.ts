import type { ValidationDetails } from '@pulseboard/contracts';

export interface Page {
  page: number;
  perPage: number;
  offset: number;
}

const MAX_PER_PAGE = 100;

/** `page` ≥ 1 (default 1), `per_page` ≥ 1 (default 25, clamped to 100); anything else is a validation error. */
export function parsePage(query: Record<string, unknown>): { ok: true; page: Page } | { ok: false; details: ValidationDetails } {
  const details: ValidationDetails = {};
  const read = (name: string, fallback: number): number => {
    const raw = query[name];
    if (raw === undefined || raw === '') return fallback;
    if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
      details[name] = ['must be a positive integer'];
      return fallback;
    }
    return Number(raw);
  };
  const page = read('page', 1);
  const perPage = Math.min(read('per_page', 25), MAX_PER_PAGE);
  if (Object.keys(details).length > 0) return { ok: false, details };
  return { ok: true, page: { page, perPage, offset: (page - 1) * perPage } };
}

export function listMeta(page: Page, totalCount: number) {
  return {
    current_page: page.page,
    total_pages: Math.ceil(totalCount / page.perPage),
    total_count: totalCount,
    per_page: page.perPage,
  };
}
