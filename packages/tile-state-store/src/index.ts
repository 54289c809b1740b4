/**
 * The rule engine's read side: every query a service other than the rule
 * engine (which owns and migrates tile_states, tile_state_history,
 * tile_replays and its offsets, outbox and relay cursors) makes on those
 * tables: a tile's state and history for the API, the replay request the
 * gateway hands the engine, and the dashboard feed's catch-up. No SQL on those
 * tables anywhere else (packages/test-kit's table-ownership test).
 */
export * from './tile-states.ts';
export * from './tile-history.ts';
export * from './tile-replays.ts';
export * from './feed-catch-up.ts';
export * from './freshness.ts';
