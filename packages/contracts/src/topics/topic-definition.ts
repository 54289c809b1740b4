import type { ValidateFunction } from 'ajv';
import { createAjv } from '../validation.ts';

/** A message ready for kafka-kit's producer (`OutgoingMessage`): key, value and headers encoded. */
export interface EncodedMessage {
  key: string | Buffer;
  value: string | Buffer;
  headers: Record<string, string | Buffer>;
}

/** A message of text only: what an outbox row can hold. */
export interface TextMessage extends EncodedMessage {
  key: string;
  value: string;
  headers: Record<string, string>;
}

/** What a decoder gives kafka-kit's consumers (`Decoder`): the typed value, or why it is not one (dead-letter reason). */
export type DecodeResult<T> = { ok: true; value: T } | { ok: false; code: string; message: string };

/** How a topic is created; kafka-kit's `ensureTopics` takes this shape. */
export interface TopicCreationSpec {
  topic: string;
  numPartitions: number;
  configEntries?: { name: string; value: string }[];
}

/** Settings a topic's creation may depend on (the events topics size their messages by the body limit). */
export interface TopicSizing {
  BODY_LIMIT_BYTES?: number;
  KAFKA_BATCH_MAX_BYTES?: number;
}

export interface HeaderDefinition {
  description: string;
  /** Fixed value, when every message carries the same one. */
  value?: string;
  /** Absent on some messages (e.g. `pb-outcome-wanted`). */
  optional?: boolean;
}

/**
 * Everything one Kafka topic carries, in one place: producers encode with it,
 * consumers decode with it, services create the topic from it, and the
 * AsyncAPI document and the compatibility check are generated from it.
 * `version` is the `.vN` of the default name; a breaking change to the value
 * schema needs a new version (see docs/topic-schemas/).
 */
export interface TopicDefinition<T, E = T, M extends EncodedMessage = EncodedMessage> {
  /** Stable identifier (`events`, `tileChanges`, ...): the AsyncAPI channel id and the snapshot key. */
  id: string;
  /** Default topic name; services take the actual one from their environment. */
  name: string;
  version: number;
  description: string;
  /** What the message key holds. */
  key: string;
  headers: Record<string, HeaderDefinition>;
  /** JSON Schema (with `$id`) of the JSON value; undefined when the value is opaque bytes (dead letters of events). */
  valueSchema: ({ $id: string } & object) | undefined;
  partitions: number;
  /** Producer side: the message for a value (`E` is what the producer holds, often the value itself). */
  encode(value: E): M;
  /** Consumer side: parses and validates the value against the schema (compiled once, on first use). */
  decode(value: Buffer | null): DecodeResult<T>;
  /** How the topic is created under the name `topic`. */
  spec(topic: string, sizing?: TopicSizing): TopicCreationSpec;
}

/** `content-type` and `pb-schema`: the two headers every JSON topic's messages carry. */
export const HEADERS = {
  contentType: 'content-type',
  schema: 'pb-schema',
  eventId: 'pb-event-id',
  traceparent: 'traceparent',
} as const;

/**
 * The W3C trace context (`00-<trace id>-<span id>-<flags>`) of the span that produced a message:
 * consumers continue the trace from it (docs/operations.md, Traces). Optional: absent when the
 * request had none and tracing is off.
 */
export const traceparentHeader: Record<string, HeaderDefinition> = {
  [HEADERS.traceparent]: {
    description: 'W3C trace context of the span that produced the message (00-<trace id>-<span id>-<flags>); consumers continue the trace from it',
    optional: true,
  },
};

/** `message` with a `traceparent` header when there is one (a new headers object: encoders share theirs). */
export function withTraceparent<M extends EncodedMessage>(message: M, traceparent: string | undefined): M {
  return traceparent === undefined ? message : { ...message, headers: { ...message.headers, [HEADERS.traceparent]: traceparent } };
}

/** A JSON decoder for `schema`, compiled on first use (a service compiles only the topics it reads). */
export function jsonTopicDecoder<T>(schema: object, what: string): (value: Buffer | null) => DecodeResult<T> {
  let validate: ValidateFunction | undefined;
  return (value) => {
    if (value === null) return { ok: false, code: 'empty_value', message: 'message has no value' };
    let parsed: unknown;
    try {
      parsed = JSON.parse(value.toString('utf8'));
    } catch (error) {
      return { ok: false, code: 'invalid_json', message: (error as Error).message };
    }
    validate ??= createAjv().compile(schema);
    if (!validate(parsed)) return { ok: false, code: 'schema_violation', message: `not a ${what}: ${JSON.stringify(validate.errors?.slice(0, 5))}` };
    return { ok: true, value: parsed as T };
  };
}

/** Plain creation spec: partitions only. */
export function plainSpec(partitions: number): (topic: string) => TopicCreationSpec {
  return (topic) => ({ topic, numPartitions: partitions });
}
