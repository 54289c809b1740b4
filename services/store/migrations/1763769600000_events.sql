-- Up Migration
-- Tables written only by the store service.

CREATE TABLE events (
  id bigint PRIMARY KEY,
  project_key text NOT NULL,
  type text NOT NULL,
  name text NOT NULL,
  occurred_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL,
  severity text,
  channel text,
  correlation_id text,
  source text,
  labels text[] NOT NULL DEFAULT '{}',
  attributes jsonb NOT NULL DEFAULT '{}'::jsonb
);
-- Lists are per project, newest first by the event's own time.
CREATE INDEX events_project_time_idx ON events (project_key, occurred_at DESC, id DESC);

-- Events accepted per project and calendar month (UTC, by receipt), counted
-- once per stored event. The gateway re-seeds Redis quota counters from it.
CREATE TABLE project_monthly_usage (
  project_key text NOT NULL,
  month date NOT NULL,
  event_count bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (project_key, month)
);

-- Down Migration
DROP TABLE project_monthly_usage;
DROP TABLE events;
