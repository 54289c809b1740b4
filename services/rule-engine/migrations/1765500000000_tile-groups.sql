-- Up Migration
-- Grouped tiles (rule `group_by`): one state per group, beside the tile's own
-- state in tile_states (its worst group's status, how many groups have it, and
-- the count per status in `evaluation`). Written in the same transaction as the
-- tile's state and the consumer offsets, so a redelivered event is never
-- applied to a group twice.
CREATE TABLE tile_group_states (
  tile_id bigint NOT NULL,
  group_key text NOT NULL,
  project_key text NOT NULL,
  status text NOT NULL CHECK (status IN ('unknown', 'ok', 'warning', 'critical', 'stale')),
  value jsonb NOT NULL DEFAULT 'null'::jsonb,
  version bigint NOT NULL DEFAULT 0 CHECK (version >= 0),
  last_event_id bigint,
  changed_at timestamptz,
  -- the evaluator's own state of the group: engine-internal
  evaluation jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- engine time of the group's last event: it retires after the rule's group_retire_after
  last_seen timestamptz NOT NULL,
  -- when the group next needs time-driven evaluation (the tile's wake_at is the earliest of its groups')
  wake_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tile_id, group_key)
);
CREATE INDEX tile_group_states_project_idx ON tile_group_states (project_key, tile_id);
COMMENT ON TABLE tile_group_states IS 'Written by: rule-engine. Read by the gateway (tile state API: groups).';

-- The group a change is of; '' for a change of the tile itself (every ungrouped tile's).
ALTER TABLE tile_state_history ADD COLUMN group_key text NOT NULL DEFAULT '';
CREATE INDEX tile_state_history_group_idx ON tile_state_history (tile_id, group_key, id) WHERE group_key <> '';

-- Down Migration
DROP INDEX tile_state_history_group_idx;
ALTER TABLE tile_state_history DROP COLUMN group_key;
DROP TABLE tile_group_states;
