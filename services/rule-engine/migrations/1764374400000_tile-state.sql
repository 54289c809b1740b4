-- Up Migration
-- Tables written only by the rule engine. The gateway reads tile_states
-- (GET /api/v1/tiles/:id/state); broadcast reads both (snapshots, resume);
-- the notification service reads neither (it consumes the tile-changes topic).

-- The current state of each tile that has ever been evaluated. No foreign key
-- to tiles: a cascade from the gateway's DELETE would make the gateway a writer
-- of this table; the engine removes a deleted tile's state itself.
CREATE TABLE tile_states (
  tile_id bigint PRIMARY KEY,
  project_key text NOT NULL,
  status text NOT NULL CHECK (status IN ('unknown', 'ok', 'warning', 'critical', 'stale')),
  -- number, boolean, event name or null (CONTRACT Tiles: value per evaluation kind)
  value jsonb NOT NULL DEFAULT 'null'::jsonb,
  -- 0 for the first state; +1 per change of status or value
  version bigint NOT NULL DEFAULT 0 CHECK (version >= 0),
  -- the event that made the last change; null for time-driven changes and unknown
  last_event_id bigint,
  changed_at timestamptz NOT NULL,
  -- the evaluator's own state (latest level, damping runs, window entries): engine-internal
  evaluation jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- which version of the tile's rule this state was evaluated under
  rule_fingerprint text NOT NULL DEFAULT '',
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tile_states_project_idx ON tile_states (project_key, tile_id);
COMMENT ON TABLE tile_states IS 'Written by: rule-engine. Read by the gateway (tile state API) and broadcast (snapshots).';

-- Every change of a tile's status or value. `id` is the change's position:
-- per project it grows in commit order (one engine instance owns a project's
-- partition at a time, fenced), so a reader resumes after the last id it saw.
CREATE TABLE tile_state_history (
  id bigserial PRIMARY KEY,
  tile_id bigint NOT NULL,
  project_key text NOT NULL,
  tile_name text NOT NULL,
  status text NOT NULL,
  previous_status text NOT NULL,
  value jsonb NOT NULL,
  previous_value jsonb NOT NULL,
  version bigint NOT NULL,
  event_id bigint,
  changed_at timestamptz NOT NULL,
  cause text NOT NULL CHECK (cause IN ('event', 'time', 'rule'))
);
CREATE INDEX tile_state_history_project_idx ON tile_state_history (project_key, id);
CREATE INDEX tile_state_history_tile_idx ON tile_state_history (tile_id, id);
COMMENT ON TABLE tile_state_history IS 'Written by: rule-engine. Read by broadcast (resume) and for audit. id = the change''s position.';

-- Down Migration
DROP TABLE tile_state_history;
DROP TABLE tile_states;
