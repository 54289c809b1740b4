-- Up Migration
-- The history is the outbox of tile changes: each row is relayed to the
-- tile-changes topic by the owner of the events partition that made it, after
-- a cursor, instead of a second copy of it in rule_engine_outbox that is
-- inserted and deleted again. Rows written before this migration were relayed
-- through the outbox (their relay_stream stays null and is never read).

-- One relay stream per (consumer group, events topic, partition): its id is
-- written into each history row it relays, and `position` is the last history
-- id sent. A partition's owner creates its stream, at the history's end, when it
-- first claims the partition.
CREATE TABLE rule_engine_relay_cursors (
  stream serial PRIMARY KEY,
  group_id text NOT NULL,
  topic text NOT NULL,
  partition int NOT NULL,
  position bigint NOT NULL,
  UNIQUE (group_id, topic, partition)
);
COMMENT ON TABLE rule_engine_relay_cursors IS 'Written by: rule-engine.';

ALTER TABLE tile_state_history ADD COLUMN relay_stream int;
CREATE INDEX tile_state_history_relay_idx ON tile_state_history (relay_stream, id) WHERE relay_stream IS NOT NULL;

-- Down Migration
DROP INDEX tile_state_history_relay_idx;
ALTER TABLE tile_state_history DROP COLUMN relay_stream;
DROP TABLE rule_engine_relay_cursors;
