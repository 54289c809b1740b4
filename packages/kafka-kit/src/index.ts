export * from './client.ts';
export * from './batching-producer.ts';
export * from './batch-consumer.ts';
export * from './outcome.ts';
export * from './json-decoder.ts';
export * from './partitioner.ts';
export * from './pulseboard-topics.ts';
