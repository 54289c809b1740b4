/**
 * The store's read side: every query a service other than the store (which
 * owns and migrates events, event_labels, project_daily_events,
 * project_monthly_usage and store_offsets) makes on those tables: the read
 * API's lists and counts, a tile's history units, quota seeding, previews and
 * replays. No SQL on those tables anywhere else (packages/test-kit's
 * table-ownership test).
 */
export * from './event-filters.ts';
export * from './event-list.ts';
export * from './event-units.ts';
export * from './monthly-usage.ts';
export * from './preview-events.ts';
export * from './replay-events.ts';
