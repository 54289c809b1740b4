-- Up Migration
-- Secret fields of a notification service's config (a webhook's signing secret,
-- a Slack URL), sealed with SECRETS_KEY (AES-256-GCM); config keeps the rest.
ALTER TABLE notification_services ADD COLUMN secrets text;
-- The services a tile notifies on status transitions (same account; checked by the API).
ALTER TABLE tiles ADD COLUMN notification_service_ids bigint[] NOT NULL DEFAULT '{}';

-- Down Migration
ALTER TABLE tiles DROP COLUMN notification_service_ids;
ALTER TABLE notification_services DROP COLUMN secrets;
