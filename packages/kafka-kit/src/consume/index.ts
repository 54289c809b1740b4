export * from './consume.ts';
export * from './types.ts';
export * from './middleware.ts';
export * from './dead-letters.ts';
export type { PartitionClaim, StateContext, StateBatchResult, PostgresOffsetsOptions, ClaimedPartitions, SharedBatch } from './postgres-offsets.ts';
