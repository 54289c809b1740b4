import { describe, expect, it } from 'vitest';
import { ConfigResourceTypes } from 'kafkajs';
import { TEST_KAFKA_BROKERS, testKafka, testTopicPrefix, uniqueName } from '@pulseboard/test-kit';
import pino from 'pino';
import { createKafka, ensureTopics } from './client.ts';

describe('ensureTopics against the real broker', () => {
  it('creates a topic with its configuration, once, however many processes race to create it, and returns when it has leaders', async () => {
    const topic = `${testTopicPrefix()}${uniqueName('ensure')}`;
    const logger = pino({ level: 'silent' });
    const spec = { topic, numPartitions: 4, configEntries: [{ name: 'max.message.bytes', value: '2162688' }] };
    await Promise.all(
      Array.from({ length: 4 }, (_, i) => ensureTopics(createKafka({ clientId: `ensure-${i}`, brokers: TEST_KAFKA_BROKERS.split(','), logger }), [spec])),
    );
    const admin = testKafka().admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      expect(topics[0]!.partitions.length).toBe(4);
      expect(topics[0]!.partitions.every((p) => p.leader >= 0)).toBe(true);
      const config = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ['max.message.bytes'] }],
      });
      expect(config.resources[0]!.configEntries[0]!.configValue).toBe('2162688');
      // Again, on an existing topic: nothing to do, no error.
      await ensureTopics(testKafka(), [spec]);
    } finally {
      await admin.disconnect();
    }
  });
});
