-- Up Migration
-- Messages of control-plane writes (projects, keys, tiles), written in the
-- write's transaction and relayed to the control topic (pulseboard.control.v1)
-- by the gateways, then deleted. Same shape as kafka-kit's outbox tables.
CREATE TABLE control_outbox (
  id bigserial PRIMARY KEY,
  source_partition integer NOT NULL,
  topic text NOT NULL,
  key text NOT NULL,
  value text NOT NULL,
  headers jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX control_outbox_source_idx ON control_outbox (source_partition, id);
COMMENT ON TABLE control_outbox IS 'Written by: gateway (every control-plane write). Relayed to the control topic and deleted.';
COMMENT ON TABLE tiles IS 'Written by: gateway (tile API); each write bumps its project''s revision. Read by other services through packages/control-plane.';

-- Down Migration
COMMENT ON TABLE tiles IS 'Written by: gateway (tile API). Read by the rule engine.';
DROP TABLE control_outbox;
