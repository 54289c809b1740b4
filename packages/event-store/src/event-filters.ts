/** The columns a list may be filtered on by equality: the only column names the list's SQL takes from a query. */
export const EQUALITY_FILTERS = ['type', 'name', 'severity', 'source', 'channel', 'correlation_id'] as const;
export type EqualityColumn = (typeof EQUALITY_FILTERS)[number];

/** The validated filters of a list of events (the gateway parses GET /events into them). */
export interface EventFilters {
  /** Column = value, for the columns of EQUALITY_FILTERS only. */
  equal: [EqualityColumn, string][];
  /** Every one of these labels must be on the event. */
  labels: string[];
  /** Inclusive lower bound of the event's own timestamp, ISO 8601 UTC. */
  since?: string;
  /** Exclusive upper bound. */
  until?: string;
}

export const hasFilters = (f: EventFilters) => f.equal.length > 0 || f.labels.length > 0 || f.since !== undefined || f.until !== undefined;

/** Which rows of a list: `perPage` of them after the first `offset`. */
export interface PageWindow {
  perPage: number;
  offset: number;
}
