-- Up Migration
-- One row per delivery: a tile transition for one service, or a message the API
-- asked for. The retry schedule lives here (next_attempt_at), so a restart never
-- loses a pending delivery. id is the Standard Webhooks `webhook-id`.
CREATE TABLE notification_deliveries (
  id text PRIMARY KEY,
  service_id bigint NOT NULL,
  account_id bigint NOT NULL,
  kind text NOT NULL CHECK (kind IN ('transition', 'message', 'test')),
  tile_id bigint,
  event_id bigint,
  -- the tile change's position: one delivery per (transition, service), whatever Kafka redelivers
  position bigint,
  -- what to send: the transition or the subject and body
  payload jsonb NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error text,
  response_status int,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  UNIQUE (position, service_id)
);
CREATE INDEX notification_deliveries_due_idx ON notification_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX notification_deliveries_service_idx ON notification_deliveries (service_id, created_at DESC, id DESC);
COMMENT ON TABLE notification_deliveries IS 'Written by: notification. Read by the gateway (delivery log).';

-- Down Migration
DROP TABLE notification_deliveries;
