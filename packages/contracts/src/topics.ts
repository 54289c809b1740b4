import { ingestedEventSchema } from './ingested-event.schema.ts';

/**
 * Kafka topic contracts: one place says what each topic carries, so producers,
 * consumers and users' own consumers agree. Names are defaults; every service
 * takes the actual name from its environment (tests use a topic of their own).
 */
export interface TopicContract {
  /** Default topic name. */
  name: string;
  /** What the message key holds. */
  key: string;
  /** JSON Schema of the JSON value (UTF-8). */
  valueSchema: object;
  /** Headers every message carries. */
  headers: Record<string, string>;
  partitions: number;
}

export const TOPICS = {
  events: {
    name: 'pulseboard.events.v1',
    key: 'project_key (UTF-8): all events of a project share a partition and stay in order',
    valueSchema: ingestedEventSchema,
    headers: {
      'content-type': 'application/json',
      'pb-schema': 'ingested-event/1',
      'pb-event-id': 'the event id, decimal',
    },
    partitions: 6,
  },
  eventsDeadLetter: {
    name: 'pulseboard.events.dlq.v1',
    key: 'the original key, unchanged',
    valueSchema: {},
    headers: {
      'pb-dlq-reason': 'stable snake_case reason code',
      'pb-dlq-message': 'human-readable reason',
      'pb-dlq-topic': 'source topic',
      'pb-dlq-partition': 'source partition',
      'pb-dlq-offset': 'source offset',
      'pb-dlq-consumer-group': 'the group that gave up',
      'pb-dlq-at': 'ISO 8601 time of dead-lettering',
    },
    partitions: 1,
  },
} as const satisfies Record<string, TopicContract>;

export const EVENT_SCHEMA_HEADER = 'ingested-event/1';
