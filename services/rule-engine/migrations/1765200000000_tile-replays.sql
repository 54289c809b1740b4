-- Up Migration
-- POST /tiles/:id/replay with dry_run false: the gateway asks, the rule engine
-- does it. The engine owns tile_states and tile_state_history, so the
-- gateway only inserts a request here (with the project revision it knew:
-- the rules used are at least that new) and waits for its outcome; the
-- engine instance that holds the project's events partition takes it in a
-- transaction fenced by its claim, ordered with its own batches for that
-- partition, and writes the state, the history and the outcome together.
CREATE TABLE tile_replays (
  id bigserial PRIMARY KEY,
  tile_id bigint NOT NULL,
  project_key text NOT NULL,
  since timestamptz NOT NULL,
  revision bigint NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed', 'cancelled')),
  result jsonb,
  requested_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
-- The engines poll for pending requests: only those are indexed.
CREATE INDEX tile_replays_pending_idx ON tile_replays (id) WHERE status = 'pending';
COMMENT ON TABLE tile_replays IS 'Written by: gateway (requests, cancellation of one not taken in time), rule-engine (outcome). Read by both.';

-- Down Migration
DROP TABLE tile_replays;
