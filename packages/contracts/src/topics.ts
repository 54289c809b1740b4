import { deadLetterHeaders, DEAD_LETTER_HEADERS, type DeadLetterInfo } from './dead-letter.ts';
import { ingestedEventSchema, type IngestedEvent } from './ingested-event.schema.ts';
import {
  notificationDeadLetterSchema,
  notificationOutcomeSchema,
  notificationRequestSchema,
  type NotificationDeadLetter,
  type NotificationOutcome,
  type NotificationRequest,
} from './notification-messages.schema.ts';
import { ruleOutcomeSchema, type RuleOutcome } from './rule-outcome.schema.ts';
import { tileChangeSchema, type TileChange } from './tile-change.schema.ts';
import { tileReplacedSchema, type TileReplaced } from './tile-replaced.schema.ts';
import { CONTROL_CHANGE_SCHEMA_HEADER, controlChangeSchema, type ControlChange } from './control-change.schema.ts';
import {
  HEADERS,
  traceparentHeader,
  jsonTopicDecoder,
  plainSpec,
  type EncodedMessage,
  type TextMessage,
  type TopicDefinition,
  type TopicSizing,
} from './topics/topic-definition.ts';

export * from './topics/topic-definition.ts';

/** `pb-schema` of an events-topic message and of a tile change. */
export const EVENT_SCHEMA_HEADER = 'ingested-event/1';
export const TILE_CHANGE_SCHEMA_HEADER = 'tile-change/1';
export const TILE_REPLACED_SCHEMA_HEADER = 'tile-replaced/1';

/** Set on events whose request waits for the rule engine's outcome (webhooks); the engine answers those only. */
export const OUTCOME_WANTED_HEADER = 'pb-outcome-wanted';
/** On events: the project revision the accepting gateway knew (rules read-your-writes, services/rule-engine/docs/rules.md). */
export const PROJECT_REVISION_HEADER = 'pb-project-revision';

const JSON_TYPE = 'application/json';
const jsonHeaders = { [HEADERS.contentType]: JSON_TYPE };
const contentTypeHeader = { [HEADERS.contentType]: { description: 'the value is JSON (UTF-8)', value: JSON_TYPE } };

/**
 * Room a message of the events topics needs. One request can turn into an
 * event of up to the body limit plus what the gateway adds (id, account,
 * receipt time, headers), and a dead letter carries those bytes plus its own
 * headers; the broker's default (1 MiB) would refuse a valid 1 MiB event. So
 * twice the body limit, and never less than a shared produce request.
 * Whichever service starts first creates the topics, so all of them use this.
 */
function eventsMaxMessageBytes(sizing: TopicSizing): number {
  return Math.max(2 * (sizing.BODY_LIMIT_BYTES ?? 1_048_576), sizing.KAFKA_BATCH_MAX_BYTES ?? 0) + 64 * 1024;
}

// Header values every event carries, encoded once (kafkajs copies Buffers as they are).
const CONTENT_TYPE_JSON = Buffer.from(JSON_TYPE, 'utf8');
const EVENT_SCHEMA = Buffer.from(EVENT_SCHEMA_HEADER, 'utf8');

/** An event as the gateway produces it: `outcomeWanted` when its request waits for the rule engine (webhooks). */
export interface OutgoingEvent {
  event: IngestedEvent;
  outcomeWanted?: boolean;
  /** The project revision the gateway checked for the request: the engine evaluates the event with rules at least that new. */
  projectRevision?: number;
  /** W3C trace context of the accepting request's span (or the request's own header with tracing off). */
  traceparent?: string | undefined;
}

/** A message a consumer could not apply, with why (what kafka-kit's dead-lettering sends). */
export interface DeadLetterInput {
  original: { key: Buffer | string | null; value: Buffer | null; headers?: Record<string, unknown> };
  info: DeadLetterInfo;
  at?: Date;
}

function encodeDeadLetter({ original, info, at }: DeadLetterInput): EncodedMessage {
  return {
    key: original.key ?? '',
    value: original.value ?? Buffer.alloc(0),
    headers: { ...(original.headers as Record<string, string | Buffer> | undefined), ...deadLetterHeaders(info, at) },
  };
}

const deadLetterHeaderDefinitions = {
  [DEAD_LETTER_HEADERS.reason]: { description: 'stable snake_case reason code' },
  [DEAD_LETTER_HEADERS.message]: { description: 'human-readable reason' },
  [DEAD_LETTER_HEADERS.topic]: { description: 'source topic' },
  [DEAD_LETTER_HEADERS.partition]: { description: 'source partition' },
  [DEAD_LETTER_HEADERS.offset]: { description: 'source offset' },
  [DEAD_LETTER_HEADERS.group]: { description: 'the consumer group that gave up' },
  [DEAD_LETTER_HEADERS.at]: { description: 'ISO 8601 time of dead-lettering' },
};

const events: TopicDefinition<IngestedEvent, OutgoingEvent> = {
  id: 'events',
  name: 'pulseboard.events.v1',
  version: 1,
  description: 'Every accepted event, written by the gateway once Kafka acknowledged it (acks=all); read by the store, the rule engine and your own consumers.',
  key: 'project_key (UTF-8): all events of a project share a partition and stay in order',
  headers: {
    ...contentTypeHeader,
    [HEADERS.schema]: { description: 'schema name and version of the value', value: EVENT_SCHEMA_HEADER },
    [HEADERS.eventId]: { description: 'the event id, decimal' },
    [OUTCOME_WANTED_HEADER]: {
      description: "present (value 1) on webhook events: a gateway waits for the rule engine's outcome (rule-outcomes topic)",
      value: '1',
      optional: true,
    },
    [PROJECT_REVISION_HEADER]: {
      description: 'the project revision the accepting gateway knew (decimal): the rule engine evaluates the event with rules at least that new',
      optional: true,
    },
    ...traceparentHeader,
  },
  valueSchema: ingestedEventSchema,
  partitions: 6,
  encode: ({ event, outcomeWanted, projectRevision, traceparent }) => ({
    key: Buffer.from(event.project_key, 'utf8'),
    value: Buffer.from(JSON.stringify(event), 'utf8'),
    headers: {
      [HEADERS.contentType]: CONTENT_TYPE_JSON,
      [HEADERS.schema]: EVENT_SCHEMA,
      [HEADERS.eventId]: String(event.id),
      ...(projectRevision === undefined ? {} : { [PROJECT_REVISION_HEADER]: String(projectRevision) }),
      ...(outcomeWanted === true ? { [OUTCOME_WANTED_HEADER]: '1' } : {}),
      ...(traceparent === undefined ? {} : { [HEADERS.traceparent]: traceparent }),
    },
  }),
  decode: jsonTopicDecoder<IngestedEvent>(ingestedEventSchema, 'ingested event'),
  spec: (topic, sizing = {}) => ({ topic, numPartitions: 6, configEntries: [{ name: 'max.message.bytes', value: String(eventsMaxMessageBytes(sizing)) }] }),
};

const eventsDeadLetter: TopicDefinition<Buffer, DeadLetterInput> = {
  id: 'eventsDeadLetter',
  name: 'pulseboard.events.dlq.v1',
  version: 1,
  description: 'Events-topic messages a consumer (the store) can never apply: the original key, bytes and headers, plus why.',
  key: 'the original key, unchanged',
  headers: deadLetterHeaderDefinitions,
  valueSchema: undefined,
  partitions: 1,
  encode: encodeDeadLetter,
  decode: (value) => ({ ok: true, value: value ?? Buffer.alloc(0) }),
  spec: (topic, sizing = {}) => ({ topic, numPartitions: 1, configEntries: [{ name: 'max.message.bytes', value: String(eventsMaxMessageBytes(sizing)) }] }),
};

const tileChanges: TopicDefinition<TileChange, TileChange, TextMessage> = {
  id: 'tileChanges',
  name: 'pulseboard.tile-changes.v1',
  version: 1,
  description:
    "Every change of a tile's status or value, relayed from the rule engine's history at least once; a reader drops a repeat by `position`, which grows per project.",
  key: 'project_key (UTF-8): the changes of a project stay in order (by position)',
  headers: {
    ...contentTypeHeader,
    [HEADERS.schema]: { description: 'schema name and version of the value', value: TILE_CHANGE_SCHEMA_HEADER },
    [PROJECT_REVISION_HEADER]: {
      description:
        'the project revision (decimal) of the rules the change was evaluated with, at least: a reader caching control-plane data re-reads a project older than that first',
      optional: true,
    },
    ...traceparentHeader,
  },
  valueSchema: tileChangeSchema,
  partitions: 6,
  encode: (change) => ({ key: change.project_key, value: JSON.stringify(change), headers: { ...jsonHeaders, [HEADERS.schema]: TILE_CHANGE_SCHEMA_HEADER } }),
  decode: jsonTopicDecoder<TileChange>(tileChangeSchema, 'tile change'),
  spec: plainSpec(6),
};

/**
 * A tile's history replaced by an applied replay, from the rule engine's
 * outbox (written in the replay's transaction). Its own topic, so readers of
 * the tile-changes topic meet no new shape. Broadcast tells the tile's
 * subscribers (`tile_replaced`), so a dashboard reads the history again.
 */
const tileReplacements: TopicDefinition<TileReplaced, TileReplaced, TextMessage> = {
  id: 'tileReplacements',
  name: 'pulseboard.tile-replacements.v1',
  version: 1,
  description:
    "A tile's state and history replaced by an applied replay (POST /tiles/{id}/replay with dry_run false): the changes from `since` on are the replay's. Relayed from the rule engine's outbox at least once; every broadcast instance reads all of them (fan-out).",
  key: 'project_key (UTF-8)',
  headers: { ...contentTypeHeader, [HEADERS.schema]: { description: 'schema name and version of the value', value: TILE_REPLACED_SCHEMA_HEADER } },
  valueSchema: tileReplacedSchema,
  partitions: 6,
  encode: (replaced) => ({
    key: replaced.project_key,
    value: JSON.stringify(replaced),
    headers: { ...jsonHeaders, [HEADERS.schema]: TILE_REPLACED_SCHEMA_HEADER },
  }),
  decode: jsonTopicDecoder<TileReplaced>(tileReplacedSchema, 'tile replacement'),
  spec: plainSpec(6),
};

/** `project_key` travels as the key: the outcome itself holds the event id only. */
const ruleOutcomes: TopicDefinition<RuleOutcome, RuleOutcome & { project_key: string }, TextMessage> = {
  id: 'ruleOutcomes',
  name: 'pulseboard.rule-outcomes.v1',
  version: 1,
  description:
    "The rule engine's outcome of each event sent with `pb-outcome-wanted` (webhooks): how many tiles it affected. Every gateway reads all of them (fan-out).",
  key: 'project_key (UTF-8)',
  headers: contentTypeHeader,
  valueSchema: ruleOutcomeSchema,
  partitions: 6,
  encode: ({ project_key, event_id, tiles_affected }) => ({ key: project_key, value: JSON.stringify({ event_id, tiles_affected }), headers: jsonHeaders }),
  decode: jsonTopicDecoder<RuleOutcome>(ruleOutcomeSchema, 'rule outcome'),
  spec: plainSpec(6),
};

const notificationRequests: TopicDefinition<NotificationRequest, NotificationRequest, TextMessage> = {
  id: 'notificationRequests',
  name: 'pulseboard.notification-requests.v1',
  version: 1,
  description: 'Messages the gateway asks the notification service to send (`send_message`, `send`).',
  key: 'account id (decimal)',
  headers: contentTypeHeader,
  valueSchema: notificationRequestSchema,
  partitions: 3,
  encode: (request) => ({ key: String(request.account_id), value: JSON.stringify(request), headers: jsonHeaders }),
  decode: jsonTopicDecoder<NotificationRequest>(notificationRequestSchema, 'notification request'),
  spec: plainSpec(3),
};

const notificationOutcomes: TopicDefinition<NotificationOutcome, NotificationOutcome, TextMessage> = {
  id: 'notificationOutcomes',
  name: 'pulseboard.notification-outcomes.v1',
  version: 1,
  description: 'What became of a requested delivery; every gateway reads all of them (fan-out).',
  key: 'request id',
  headers: contentTypeHeader,
  valueSchema: notificationOutcomeSchema,
  partitions: 3,
  encode: (outcome) => ({ key: outcome.request_id, value: JSON.stringify(outcome), headers: jsonHeaders }),
  decode: jsonTopicDecoder<NotificationOutcome>(notificationOutcomeSchema, 'notification outcome'),
  spec: plainSpec(3),
};

/**
 * Deliveries that failed for good (`pb-dlq-reason: delivery_failed`, value a
 * NotificationDeadLetter), and messages of the notification service's input
 * topics it could not read (their original bytes and the other `pb-dlq-*` headers).
 */
const notificationsDeadLetter: TopicDefinition<NotificationDeadLetter, NotificationDeadLetter, TextMessage> & {
  encodeUnreadable(input: DeadLetterInput): EncodedMessage;
} = {
  id: 'notificationsDeadLetter',
  name: 'pulseboard.notifications.dlq.v1',
  version: 1,
  description:
    'Deliveries that failed for good (`pb-dlq-reason: delivery_failed`; the value is a NotificationDeadLetter), and tile changes or requests the notification service could not read (their original bytes, other reasons).',
  key: "delivery id (or the unreadable message's original key)",
  headers: { ...contentTypeHeader, ...deadLetterHeaderDefinitions },
  valueSchema: notificationDeadLetterSchema,
  partitions: 1,
  encode: (letter) => ({
    key: letter.delivery_id,
    value: JSON.stringify(letter),
    headers: { ...jsonHeaders, [DEAD_LETTER_HEADERS.reason]: 'delivery_failed', [DEAD_LETTER_HEADERS.at]: new Date().toISOString() },
  }),
  encodeUnreadable: encodeDeadLetter,
  decode: jsonTopicDecoder<NotificationDeadLetter>(notificationDeadLetterSchema, 'notification dead letter'),
  spec: plainSpec(1),
};

/**
 * Control-plane writes (projects, keys, tiles), one message per write from the
 * gateway's outbox (written as text in the write's transaction). Compacted: the
 * latest message per project stays. Services keep their control-plane caches
 * from it (fan-out): a message newer than a cached copy makes them re-read it.
 */
const control: TopicDefinition<ControlChange, ControlChange, TextMessage> = {
  id: 'control',
  name: 'pulseboard.control.v1',
  version: 1,
  description:
    "Every control-plane write (project created, updated, key regenerated, deleted; tile created, updated, deleted) with the project revision it committed; relayed from the gateway's outbox at least once, in no guaranteed order across gateways: a reader acts on a revision newer than it knows.",
  key: 'project_key (UTF-8)',
  headers: { ...contentTypeHeader, [HEADERS.schema]: { description: 'schema name and version of the value', value: CONTROL_CHANGE_SCHEMA_HEADER } },
  valueSchema: controlChangeSchema,
  partitions: 6,
  encode: (change) => ({ key: change.project_key, value: JSON.stringify(change), headers: { ...jsonHeaders, [HEADERS.schema]: CONTROL_CHANGE_SCHEMA_HEADER } }),
  decode: jsonTopicDecoder<ControlChange>(controlChangeSchema, 'control change'),
  spec: (topic) => ({ topic, numPartitions: 6, configEntries: [{ name: 'cleanup.policy', value: 'compact' }] }),
};

/**
 * Kafka topic definitions: one place says what each topic carries, so
 * producers, consumers and users' own consumers agree. Names are defaults;
 * every service takes the actual name from its environment (tests use a topic of their own).
 */
export const TOPICS = {
  events,
  eventsDeadLetter,
  tileChanges,
  tileReplacements,
  ruleOutcomes,
  notificationRequests,
  notificationOutcomes,
  notificationsDeadLetter,
  control,
} as const;

export type TopicId = keyof typeof TOPICS;

/** Every definition, for generators (AsyncAPI, the compatibility snapshot). */
export function topicDefinitions(): TopicDefinition<unknown, never>[] {
  return Object.values(TOPICS);
}
