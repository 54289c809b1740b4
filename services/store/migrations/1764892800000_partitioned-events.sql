-- Up Migration
-- Events and their label rows partitioned by the event's own time, one
-- partition per UTC day (events_pYYYYMMDD, event_labels_pYYYYMMDD), which the
-- store creates ahead and drops once they are older than every retention in
-- force (CONTRACT Events, Retention). The store writes each batch with COPY in
-- the transaction that also stores its consumer offsets (store_offsets), so a
-- redelivered batch is skipped by offset, with no ON CONFLICT; an event the
-- gateway sent twice (the same id) is found by its unique (id, time) key.
--
-- An installation that has events keeps them without copying a row: the old
-- table becomes the partition of everything before a cutover (two days after
-- this migration, past any accepted timestamp), which retention drops whole
-- once all of it has aged out. The old table's CHECK constraint on that bound
-- and indexes matching the new ones make the attach a catalog change; without
-- them this migration builds them itself, holding the table meanwhile.
-- `services/store/docs/partitioning.md` gives the online steps
-- (deploy/store-prepare-partitioning.sql) that take the wait out of it.

DROP TRIGGER IF EXISTS events_index_labels ON events;
DROP FUNCTION IF EXISTS events_index_labels();
ALTER TABLE events RENAME TO events_legacy;
ALTER TABLE event_labels RENAME TO event_labels_legacy;
-- The old tables' index names go with them (the new tables take the names).
DO $$
DECLARE index_name text;
BEGIN
  FOR index_name IN SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid IN ('events_legacy'::regclass, 'event_labels_legacy'::regclass) LOOP
    IF index_name NOT LIKE '%legacy%' THEN EXECUTE format('ALTER INDEX %I RENAME TO %I', index_name, index_name || '_legacy'); END IF;
  END LOOP;
END $$;
COMMENT ON TABLE project_monthly_usage IS 'Written by: store, in the transaction that writes the events. Read by the gateway (quota seeding). Counts accepted events; retention never lowers it.';

CREATE TABLE events (
  id bigint NOT NULL,
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
) PARTITION BY RANGE (occurred_at);
COMMENT ON TABLE events IS 'Written by: store (from the events topic; partitions and retention too). Read by the gateway read API.';

-- GET /api/v1/events/:id, and an event stored once: a gateway that resends an
-- event after a timeout (Idempotency-Key) resends it with the same id and time,
-- and the store skips it (the key must hold the partition's column).
CREATE UNIQUE INDEX events_id_idx ON events (id, occurred_at);
-- Lists: one project, newest first; with an equality filter, that filter's
-- index gives the newest page in order (bench/list-events measures each). The
-- optional fields are indexed only where present: most events leave some of
-- them out, and an index entry per event is what the write path pays for.
CREATE INDEX events_project_time_idx ON events (project_key, occurred_at DESC, id DESC);
CREATE INDEX events_project_type_time_idx ON events (project_key, type, occurred_at DESC, id DESC);
CREATE INDEX events_project_name_time_idx ON events (project_key, name, occurred_at DESC, id DESC);
CREATE INDEX events_project_severity_time_idx ON events (project_key, severity, occurred_at DESC, id DESC) WHERE severity IS NOT NULL;
CREATE INDEX events_project_source_time_idx ON events (project_key, source, occurred_at DESC, id DESC) WHERE source IS NOT NULL;
CREATE INDEX events_project_channel_time_idx ON events (project_key, channel, occurred_at DESC, id DESC) WHERE channel IS NOT NULL;
CREATE INDEX events_project_correlation_time_idx ON events (project_key, correlation_id, occurred_at DESC, id DESC) WHERE correlation_id IS NOT NULL;

CREATE TABLE event_labels (
  project_key text NOT NULL,
  label text NOT NULL,
  occurred_at timestamptz NOT NULL,
  event_id bigint NOT NULL,
  PRIMARY KEY (project_key, label, occurred_at, event_id)
) PARTITION BY RANGE (occurred_at);
COMMENT ON TABLE event_labels IS 'Written by: store (with the events, in the same transaction). Read by the gateway read API (label filter).';

-- Stored events per project and UTC day of their time: the unfiltered
-- total_count of a list, kept exact as retention drops days and deletes rows.
-- (project_monthly_usage counts what was accepted, for quotas, and never
-- falls.)
CREATE TABLE project_daily_events (
  project_key text NOT NULL,
  day date NOT NULL,
  event_count bigint NOT NULL,
  PRIMARY KEY (project_key, day)
);
COMMENT ON TABLE project_daily_events IS 'Written by: store. Read by the gateway (unfiltered total_count).';

-- Makes sure the partitions of these UTC days exist (both tables), creating
-- what is missing and attaching it, which takes SHARE UPDATE EXCLUSIVE on the
-- parent: writers and readers go on. A day another partition already covers
-- (the old table's range) is skipped. One caller at a time. Returns the names
-- created. The store calls it ahead of time and before writing a batch.
CREATE FUNCTION store_ensure_day_partitions(days date[]) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
  d date;
  t text;
  name text;
  created text[] := '{}';
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('pulseboard-store-partitions'));
  FOREACH d IN ARRAY days LOOP
    FOREACH t IN ARRAY ARRAY['events', 'event_labels'] LOOP
      name := format('%s_p%s', t, to_char(d, 'YYYYMMDD'));
      CONTINUE WHEN to_regclass(name) IS NOT NULL;
      BEGIN
        EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', name, t);
        EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', t, name, d::timestamp AT TIME ZONE 'UTC', (d + 1)::timestamp AT TIME ZONE 'UTC');
        created := created || name;
      EXCEPTION WHEN invalid_object_definition THEN
        -- "would overlap": another partition holds the day already.
        NULL;
      END;
    END LOOP;
  END LOOP;
  RETURN created;
END $$;

-- The store's consumer offsets, written in each batch's transaction (kafka-kit's state-owning consumer).
CREATE TABLE store_offsets (
  group_id text NOT NULL,
  topic text NOT NULL,
  partition int NOT NULL,
  next_offset bigint NOT NULL,
  epoch bigint NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (group_id, topic, partition)
);
COMMENT ON TABLE store_offsets IS 'Written by: store.';

DO $$
DECLARE
  cutover timestamptz := date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '2 days';
  bound text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM events_legacy) THEN
    DROP TABLE events_legacy;
    DROP TABLE event_labels_legacy;
    RETURN;
  END IF;
  -- A bound prepared online (deploy/store-prepare-partitioning.sql) is used as it is.
  SELECT substring(pg_get_constraintdef(oid) FROM '< ''([^'']+)''') INTO bound
    FROM pg_constraint WHERE conrelid = 'events_legacy'::regclass AND conname = 'events_legacy_before_cutover';
  IF bound IS NULL THEN
    EXECUTE format('ALTER TABLE events_legacy ADD CONSTRAINT events_legacy_before_cutover CHECK (occurred_at < %L)', cutover);
    EXECUTE format('ALTER TABLE event_labels_legacy ADD CONSTRAINT event_labels_legacy_before_cutover CHECK (occurred_at < %L)', cutover);
  ELSE
    cutover := bound::timestamptz;
  END IF;
  EXECUTE format('ALTER TABLE events ATTACH PARTITION events_legacy FOR VALUES FROM (MINVALUE) TO (%L)', cutover);
  EXECUTE format('ALTER TABLE event_labels ATTACH PARTITION event_labels_legacy FOR VALUES FROM (MINVALUE) TO (%L)', cutover);
  INSERT INTO project_daily_events (project_key, day, event_count)
    SELECT project_key, (occurred_at AT TIME ZONE 'UTC')::date, count(*) FROM events_legacy GROUP BY 1, 2;
END $$;

-- Down Migration
DROP FUNCTION store_ensure_day_partitions(date[]);
DROP TABLE store_offsets;
DROP TABLE project_daily_events;
DROP TABLE event_labels;
DROP TABLE events;
CREATE TABLE events (
  id bigint PRIMARY KEY, project_key text NOT NULL, type text NOT NULL, name text NOT NULL,
  occurred_at timestamptz NOT NULL, received_at timestamptz NOT NULL, severity text, channel text,
  correlation_id text, source text, labels text[] NOT NULL DEFAULT '{}', attributes jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX events_project_time_idx ON events (project_key, occurred_at DESC, id DESC);
CREATE TABLE event_labels (
  project_key text NOT NULL, label text NOT NULL, occurred_at timestamptz NOT NULL, event_id bigint NOT NULL,
  PRIMARY KEY (project_key, label, occurred_at, event_id)
);
