-- Up Migration
-- The project revision of the rules each change was evaluated with (the rule
-- engine's cached copy at the transaction). Relayed as the tile change's
-- pb-project-revision header, so a reader that caches control-plane data (the
-- notification service's attached services) re-reads a project older than that
-- before acting on the change: a tile write is seen by the changes of every
-- event accepted after it, by order. 0: written before this column.
ALTER TABLE tile_state_history ADD COLUMN rules_revision bigint NOT NULL DEFAULT 0;

-- Down Migration
ALTER TABLE tile_state_history DROP COLUMN rules_revision;
