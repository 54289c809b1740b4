-- Up Migration
-- The engine's consumer offsets, written in the same transaction as the tile
-- states they produced (kafka-kit's state-owning consumer), with the epoch that
-- fences a former owner of a partition out.
CREATE TABLE rule_engine_offsets (
  group_id text NOT NULL,
  topic text NOT NULL,
  partition int NOT NULL,
  -- the next offset to apply; -1 before any
  next_offset bigint NOT NULL,
  epoch bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (group_id, topic, partition)
);

-- Messages born of a transaction's state (tile changes, rule outcomes), sent
-- to Kafka after it commits and then deleted. source_partition = the events
-- partition whose owner relays them.
CREATE TABLE rule_engine_outbox (
  id bigserial PRIMARY KEY,
  source_partition int NOT NULL,
  topic text NOT NULL,
  key text NOT NULL,
  value text NOT NULL,
  headers jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX rule_engine_outbox_partition_idx ON rule_engine_outbox (source_partition, id);

-- When the tile next needs time-driven evaluation (window entries leaving,
-- damping, staleness): the partition's new owner re-arms its timers from it.
ALTER TABLE tile_states ADD COLUMN wake_at timestamptz;
-- null until the first change (a tile that saw events but never changed)
ALTER TABLE tile_states ALTER COLUMN changed_at DROP NOT NULL;
CREATE INDEX tile_states_wake_at_idx ON tile_states (wake_at) WHERE wake_at IS NOT NULL;

COMMENT ON TABLE rule_engine_offsets IS 'Written by: rule-engine.';
COMMENT ON TABLE rule_engine_outbox IS 'Written by: rule-engine.';

-- Down Migration
DROP INDEX tile_states_wake_at_idx;
ALTER TABLE tile_states DROP COLUMN wake_at;
UPDATE tile_states SET changed_at = updated_at WHERE changed_at IS NULL;
ALTER TABLE tile_states ALTER COLUMN changed_at SET NOT NULL;
DROP TABLE rule_engine_outbox;
DROP TABLE rule_engine_offsets;
