-- Up Migration
-- The events indexes are those the product's queries read, and no others:
-- each costs the store one index entry per event written (bench:events-read
-- measures each). packages/event-store/src/event-indexes.integration.test.ts
-- EXPLAINs the read API's statements for every documented filter of
-- GET /api/v1/events and fails if one of these is dropped;
-- docs/performance.md ("Events indexes") gives the figures.

-- why: GET /api/v1/events/:id; a label list's events, fetched by their (id, time)
-- key; an event the gateway sent twice is stored once (unique, and the store's
-- look-up of which events of a batch are already stored).
COMMENT ON INDEX events_id_idx IS 'GET /events/:id, label lists'' events by (id, time), the store''s once-only write. Kept because those read it.';
-- why: lists without an equality filter (none, since, until) read their page in
-- order; a preview's scan from `since`; retention's per-project deletes.
COMMENT ON INDEX events_project_time_idx IS 'Lists without an equality filter (none, since, until), preview scans, retention deletes.';
-- why: one per equality filter of GET /api/v1/events: the newest page in order
-- and the capped count (COUNT_CAP entries) of a value however rare it is.
-- Without its own index a filter walks the project's events newest first
-- until the page and the count are found: a value on one event in five costs
-- tens of ms at 10,000,000 events, a rarer one reads the whole project
-- (source, channel, correlation_id: 0.1-2.5 s p99).
COMMENT ON INDEX events_project_type_time_idx IS 'GET /events?type=';
COMMENT ON INDEX events_project_name_time_idx IS 'GET /events?name=';
COMMENT ON INDEX events_project_severity_time_idx IS 'GET /events?severity= (partial: only events that have one)';
COMMENT ON INDEX events_project_source_time_idx IS 'GET /events?source= (partial: only events that have one)';
COMMENT ON INDEX events_project_channel_time_idx IS 'GET /events?channel= (partial: only events that have one)';
COMMENT ON INDEX events_project_correlation_time_idx IS 'GET /events?correlation_id= (partial: only events that have one)';
-- why: a replay reads one project's events by receipt in every partition.
COMMENT ON INDEX events_project_received_idx IS 'Replays (POST /tiles/{id}/replay): a project''s events received since a time.';
-- why: label lists and their counts, newest first; retention's deletes of label rows.
COMMENT ON INDEX event_labels_pkey IS 'GET /events?label=: a label''s rows newest first and their capped count; retention deletes.';

-- An installation upgraded from the table before partitioning keeps, on the
-- old rows' partition (events_legacy), indexes that are none of the table's
-- own: the old primary key on id and full copies of the severity, source,
-- channel and correlation_id indexes beside the partial ones attached to
-- events' indexes. No query needs them (the attached ones answer the same
-- statements) and every event still stored there paid for them. Any index of
-- a partition that is not a partition of one of the table's indexes goes.
DO $$
DECLARE
  extra record;
BEGIN
  FOR extra IN
    SELECT i.indexrelid::regclass::text AS index_name, i.indrelid::regclass::text AS table_name, con.conname
      FROM pg_inherits part
      JOIN pg_index i ON i.indrelid = part.inhrelid
      LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid AND con.conrelid = i.indrelid
     WHERE part.inhparent IN ('events'::regclass, 'event_labels'::regclass)
       AND NOT EXISTS (SELECT 1 FROM pg_inherits x WHERE x.inhrelid = i.indexrelid)
  LOOP
    IF extra.conname IS NOT NULL THEN
      EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', extra.table_name, extra.conname);
    ELSE
      EXECUTE format('DROP INDEX %s', extra.index_name);
    END IF;
  END LOOP;
END $$;

-- Down Migration
-- The old partition's extra indexes are not built again: no query needs them.
COMMENT ON INDEX event_labels_pkey IS NULL;
COMMENT ON INDEX events_project_received_idx IS NULL;
COMMENT ON INDEX events_project_correlation_time_idx IS NULL;
COMMENT ON INDEX events_project_channel_time_idx IS NULL;
COMMENT ON INDEX events_project_source_time_idx IS NULL;
COMMENT ON INDEX events_project_severity_time_idx IS NULL;
COMMENT ON INDEX events_project_name_time_idx IS NULL;
COMMENT ON INDEX events_project_type_time_idx IS NULL;
COMMENT ON INDEX events_project_time_idx IS NULL;
COMMENT ON INDEX events_id_idx IS NULL;
