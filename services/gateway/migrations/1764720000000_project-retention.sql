-- Up Migration
-- Days a project's events are kept (CONTRACT Events, Retention); NULL: the
-- environment's EVENT_RETENTION_DAYS. The gateway refuses timestamps older than
-- this; the store drops or deletes what ages out. A change bumps the revision
-- (like any limit), so every gateway applies it from the next request.
ALTER TABLE projects ADD COLUMN retention_days integer CHECK (retention_days BETWEEN 1 AND 400);

-- Down Migration
ALTER TABLE projects DROP COLUMN retention_days;
