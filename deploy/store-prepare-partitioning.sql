-- Prepares an installation that has events for the store's partitioning
-- migration (1764892800000_partitioned-events), online: every statement here
-- lets ingest and reads go on. Run it, then upgrade the store within 6 days:
--   psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -f deploy/store-prepare-partitioning.sql
-- After it, the migration only renames the tables and attaches them as the
-- partition of everything before the cutover: a catalog change, no scan, no
-- index build (services/store/docs/partitioning.md, measured on 1M events).
\set ON_ERROR_STOP on
-- The indexes the partitioned table has and the old one lacks, built without blocking writes.
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS events_id_legacy ON events (id, occurred_at);
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_project_severity_time_legacy ON events (project_key, severity, occurred_at DESC, id DESC) WHERE severity IS NOT NULL;
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_project_source_time_legacy ON events (project_key, source, occurred_at DESC, id DESC) WHERE source IS NOT NULL;
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_project_channel_time_legacy ON events (project_key, channel, occurred_at DESC, id DESC) WHERE channel IS NOT NULL;
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_project_correlation_time_legacy ON events (project_key, correlation_id, occurred_at DESC, id DESC) WHERE correlation_id IS NOT NULL;
-- The old rows' bound, 7 days ahead (accepted timestamps reach 24 h ahead):
-- added without a scan, then validated while writes go on.
SELECT to_char(date_trunc('day', now() AT TIME ZONE 'UTC') + interval '7 days', 'YYYY-MM-DD"T00:00:00Z"') AS cutover \gset
ALTER TABLE events ADD CONSTRAINT events_legacy_before_cutover CHECK (occurred_at < :'cutover') NOT VALID;
ALTER TABLE events VALIDATE CONSTRAINT events_legacy_before_cutover;
ALTER TABLE event_labels ADD CONSTRAINT event_labels_legacy_before_cutover CHECK (occurred_at < :'cutover') NOT VALID;
ALTER TABLE event_labels VALIDATE CONSTRAINT event_labels_legacy_before_cutover;
\echo prepared: old events become the partition before :cutover; upgrade the store before then minus 24 h
