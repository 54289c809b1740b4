-- Up Migration
-- How current each events partition's tiles are (freshness): the partition's
-- owner writes, about every second, the next offset it will apply and the
-- time its tiles are complete through (the later of the newest applied
-- event's receipt and the last moment it had applied everything Kafka had
-- acknowledged). Readers compare next_offset with the topic's end offset: an
-- engine that applied everything is live however quiet the partition, one
-- that stopped or fell behind is behind by now - applied_through. The epoch
-- is the claim's: a former owner that has not yet noticed a rebalance cannot
-- write over the new one.
CREATE TABLE rule_engine_freshness (
  topic text NOT NULL,
  partition int NOT NULL,
  next_offset bigint NOT NULL,
  applied_through timestamptz,
  epoch bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (topic, partition)
);
COMMENT ON TABLE rule_engine_freshness IS 'Written by: rule-engine. Read by: gateway (GET /api/v1/projects/{key} freshness).';

-- Down Migration
DROP TABLE rule_engine_freshness;
