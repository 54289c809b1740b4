-- Up Migration
-- The W3C trace context of the batch that made a change (README "Operate",
-- traces): the relay puts it on the tile-change message, so broadcast and
-- notification continue the event's trace. Null when the event had none.
ALTER TABLE tile_state_history ADD COLUMN traceparent text;

-- Down Migration
ALTER TABLE tile_state_history DROP COLUMN traceparent;
