-- Up Migration
-- Each table has one writing service; the catalogue says which, so an operator
-- reading the database (\dt+) sees it too. Other services only read these.
COMMENT ON TABLE accounts IS 'Written by: gateway (admin API). Owns users, projects, notification services.';
COMMENT ON TABLE users IS 'Written by: gateway (admin API). token_hash is SHA-256 of the evu_ token.';
COMMENT ON TABLE projects IS 'Written by: gateway (admin and project API). api_key_hash is SHA-256 of the evk_ key; revision is mirrored in Redis.';
COMMENT ON TABLE tiles IS 'Written by: gateway (tile API). Read by the rule engine.';
COMMENT ON TABLE notification_services IS 'Written by: gateway. Read by the notification service.';

-- The tile API checks these too; the database keeps any other writer honest.
ALTER TABLE tiles
  ADD CONSTRAINT tiles_kind_format CHECK (kind ~ '^[a-z][a-z0-9_]{0,49}$'),
  ADD CONSTRAINT tiles_rule_is_object CHECK (jsonb_typeof(rule) = 'object'),
  ADD CONSTRAINT tiles_settings_is_object CHECK (jsonb_typeof(settings) = 'object'),
  ADD CONSTRAINT tiles_position_range CHECK (position BETWEEN 0 AND 100000);

-- Operators list an account's live projects; deleted ones stay for their events.
CREATE INDEX projects_account_live_idx ON projects (account_id, project_key) WHERE deleted_at IS NULL;

-- Down Migration
DROP INDEX projects_account_live_idx;
ALTER TABLE tiles
  DROP CONSTRAINT tiles_kind_format,
  DROP CONSTRAINT tiles_rule_is_object,
  DROP CONSTRAINT tiles_settings_is_object,
  DROP CONSTRAINT tiles_position_range;
COMMENT ON TABLE accounts IS NULL;
COMMENT ON TABLE users IS NULL;
COMMENT ON TABLE projects IS NULL;
COMMENT ON TABLE tiles IS NULL;
COMMENT ON TABLE notification_services IS NULL;
