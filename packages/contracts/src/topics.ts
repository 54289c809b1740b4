import { ingestedEventSchema } from './ingested-event.schema.ts';
import { tileChangeSchema } from './tile-change.schema.ts';

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
      'pb-outcome-wanted': 'present on webhook events: a gateway waits for the rule engine\'s outcome (rule-outcomes topic)',
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
  tileChanges: {
    name: 'pulseboard.tile-changes.v1',
    key: 'project_key (UTF-8): the changes of a project stay in order (by position)',
    valueSchema: tileChangeSchema,
    headers: {
      'content-type': 'application/json',
      'pb-schema': 'tile-change/1',
    },
    partitions: 6,
  },
  /** The rule engine's outcome of each event: how many tiles it affected. Read by the gateway (webhook replies). */
  ruleOutcomes: {
    name: 'pulseboard.rule-outcomes.v1',
    key: 'project_key (UTF-8)',
    valueSchema: { type: 'object', required: ['event_id', 'tiles_affected'], properties: { event_id: { type: 'integer' }, tiles_affected: { type: 'integer', minimum: 0 } } },
    headers: { 'content-type': 'application/json' },
    partitions: 6,
  },
  /** Messages the gateway asks the notification service to send (send_message, send). */
  notificationRequests: {
    name: 'pulseboard.notification-requests.v1',
    key: 'account id (decimal)',
    valueSchema: { type: 'object', required: ['request_id', 'service_id', 'account_id', 'subject', 'body', 'test'] },
    headers: { 'content-type': 'application/json' },
    partitions: 3,
  },
  /** What became of a requested delivery; every gateway reads all of them (fan-out). */
  notificationOutcomes: {
    name: 'pulseboard.notification-outcomes.v1',
    key: 'request id',
    valueSchema: { type: 'object', required: ['request_id', 'delivery_id', 'status', 'attempts', 'response_status'] },
    headers: { 'content-type': 'application/json' },
    partitions: 3,
  },
  /** Deliveries that failed for good: the delivery, its last error, its attempts. */
  notificationsDeadLetter: {
    name: 'pulseboard.notifications.dlq.v1',
    key: 'delivery id',
    valueSchema: { type: 'object', required: ['delivery_id', 'service_id', 'attempts', 'last_error'] },
    headers: { 'content-type': 'application/json' },
    partitions: 1,
  },
} as const satisfies Record<string, TopicContract>;

/** The headers Pulseboard's own messages carry (the topic contracts above list them per topic). */
export const HEADERS = {
  contentType: 'content-type',
  schema: 'pb-schema',
  eventId: 'pb-event-id',
} as const;

/** `pb-schema` of an events-topic message and of a tile change. */
export const EVENT_SCHEMA_HEADER = 'ingested-event/1';
export const TILE_CHANGE_SCHEMA_HEADER = 'tile-change/1';

/** Set on events whose request waits for the rule engine's outcome (webhooks); the engine answers those only. */
export const OUTCOME_WANTED_HEADER = 'pb-outcome-wanted';
