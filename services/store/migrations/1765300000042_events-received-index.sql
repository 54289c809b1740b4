-- Up Migration
-- A replay (POST /tiles/:id/replay, docs/api.md) reads one project's events
-- received from `since` on, in the rule engine's order (gateway
-- preview-events.ts, rule-engine replay.ts). The table is partitioned by the
-- events' own time, which says nothing of when they were received (an event
-- may be dated up to its retention before its receipt), so every partition is
-- searched: without this index each one reads all of the project's events
-- through events_project_time_idx and filters them by receipt; with it, only
-- those received since `since`. One more index entry per event written.
--
-- On a large installation, build it without holding the table: CREATE INDEX
-- CONCURRENTLY on each partition, CREATE INDEX ... ON ONLY events, then ALTER
-- INDEX ... ATTACH PARTITION each (PostgreSQL's CREATE INDEX, "Notes" on
-- partitioned tables) before deploying; this statement then finds it built.
CREATE INDEX IF NOT EXISTS events_project_received_idx ON events (project_key, received_at);

-- Down Migration
DROP INDEX IF EXISTS events_project_received_idx;
