-- Up Migration
-- Where the events topic held each event (partition, offset): the order the
-- rule engine applied them in (a project's events share a partition, one
-- message per event), so a replay of a tile reads the stored events in that
-- same order (docs/api.md, Replay). Written by the store's COPY; NULL for
-- events stored before this column existed (replay puts those first, by
-- receipt). Nullable without a default: a catalog change on every partition,
-- no table rewrite, nothing added to the write path but two fields.
ALTER TABLE events ADD COLUMN kafka_partition integer, ADD COLUMN kafka_offset bigint;

-- Down Migration
ALTER TABLE events DROP COLUMN kafka_offset, DROP COLUMN kafka_partition;
