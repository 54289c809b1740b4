-- Up Migration
COMMENT ON TABLE events IS 'Written by: store (from the events topic). Read by the gateway read API.';
COMMENT ON TABLE project_monthly_usage IS 'Written by: store, in the statement that inserts the events. Read by the gateway (quota seeding, unfiltered total_count).';

-- GET /api/v1/events filters one project by one of these columns, newest first.
-- With the filter column between project_key and the time, the first page is
-- read in order from the index and the walk stops after per_page rows, however
-- many events the project holds (bench/list-events measures it). Each index
-- costs the store one more index insert per event.
CREATE INDEX events_project_type_time_idx ON events (project_key, type, occurred_at DESC, id DESC);
CREATE INDEX events_project_name_time_idx ON events (project_key, name, occurred_at DESC, id DESC);
CREATE INDEX events_project_severity_time_idx ON events (project_key, severity, occurred_at DESC, id DESC);
CREATE INDEX events_project_source_time_idx ON events (project_key, source, occurred_at DESC, id DESC);
CREATE INDEX events_project_channel_time_idx ON events (project_key, channel, occurred_at DESC, id DESC);
CREATE INDEX events_project_correlation_time_idx ON events (project_key, correlation_id, occurred_at DESC, id DESC);
-- Labels: a common label is found by walking the time index; a rare one by this
-- GIN index (the planner picks by the label's frequency).
CREATE INDEX events_labels_idx ON events USING gin (labels);

-- Down Migration
DROP INDEX events_labels_idx;
DROP INDEX events_project_correlation_time_idx;
DROP INDEX events_project_channel_time_idx;
DROP INDEX events_project_source_time_idx;
DROP INDEX events_project_severity_time_idx;
DROP INDEX events_project_name_time_idx;
DROP INDEX events_project_type_time_idx;
COMMENT ON TABLE project_monthly_usage IS NULL;
COMMENT ON TABLE events IS NULL;
