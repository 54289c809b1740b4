import { broadcastClientMessageSchema, broadcastServerMessageSchema, BROADCAST_CLOSE } from '../broadcast-protocol.schema.ts';
import { tileChangeSchema } from '../tile-change.schema.ts';
import { topicDefinitions, type TopicDefinition } from '../topics.ts';

type Json = Record<string, unknown>;

/** `https://pulseboard.dev/schemas/tile-change.json` → `TileChange` (its title when it has one). */
function componentName(schema: { $id: string; title?: string }): string {
  if (schema.title !== undefined) return schema.title;
  return /([a-z0-9-]+)\.json$/.exec(schema.$id)![1]!.replace(/(^|-)([a-z0-9])/g, (_m, _d, c: string) => c.toUpperCase());
}

/**
 * Copies a contracts schema for components.schemas: `$ref`s to another
 * `$id` point into components, `$id` itself becomes `x-schema-id` (a base URI
 * the parser would try to resolve), the ajv keywords become `x-` extensions.
 */
function asComponent(value: unknown, names: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => asComponent(v, names));
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$id') out['x-schema-id'] = inner;
    else if (key === '$ref' && typeof inner === 'string' && names.has(inner)) out.$ref = `#/components/schemas/${names.get(inner)}`;
    else if (key === 'storableText') out['x-pulseboard-storable-text'] = inner;
    else if (key === 'boundedJson') out['x-pulseboard-max-depth'] = inner;
    else out[key] = asComponent(inner, names);
  }
  return out;
}

function headersSchema(topic: TopicDefinition<unknown, never>): Json {
  const properties: Json = {};
  const required: string[] = [];
  for (const [name, h] of Object.entries(topic.headers)) {
    properties[name] = { type: 'string', description: h.description, ...(h.value === undefined ? {} : { const: h.value }) };
    if (h.optional !== true && topic.valueSchema !== undefined) required.push(name);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/**
 * The AsyncAPI 3 document of Pulseboard's Kafka topics and of the broadcast
 * WebSocket protocol, generated from the topic definitions (TOPICS) and the
 * protocol's schemas: docs/asyncapi.json is this (`pnpm asyncapi:write`).
 * Operations are written from a reader's side: you receive from the topics
 * (your own consumers), and on the WebSocket you send the client messages
 * and receive the server's.
 */
export function generateAsyncApiDocument(): Json {
  const topics = topicDefinitions();
  const shared = [
    ...topics.flatMap((t) => (t.valueSchema === undefined ? [] : [t.valueSchema as { $id: string; title?: string }])),
    tileChangeSchema,
    broadcastClientMessageSchema,
    broadcastServerMessageSchema,
  ];
  const names = new Map(shared.map((s) => [s.$id, componentName(s)]));
  const schemas: Json = {};
  for (const s of shared) schemas[names.get(s.$id)!] = asComponent(s, names);

  const channels: Json = {};
  const operations: Json = {};
  const messages: Json = {};
  for (const topic of topics) {
    const messageName = topic.valueSchema === undefined ? `${topic.id}Message` : names.get(topic.valueSchema.$id)!;
    messages[messageName] = {
      name: messageName,
      title: `${topic.name} message`,
      contentType: topic.valueSchema === undefined ? 'application/octet-stream' : 'application/json',
      headers: headersSchema(topic),
      payload:
        topic.valueSchema === undefined
          ? { type: 'string', format: 'binary', description: 'the original message bytes, unchanged' }
          : { $ref: `#/components/schemas/${messageName}` },
      bindings: { kafka: { key: { type: 'string', description: topic.key }, bindingVersion: '0.5.0' } },
    };
    channels[topic.id] = {
      address: topic.name,
      title: topic.name,
      description: `${topic.description} Key: ${topic.key}. The name is the default; each service takes it from its environment.`,
      servers: [{ $ref: '#/servers/kafka' }],
      messages: { [messageName]: { $ref: `#/components/messages/${messageName}` } },
      bindings: { kafka: { topic: topic.name, partitions: topic.partitions, bindingVersion: '0.5.0' } },
    };
    operations[`receive${topic.id[0]!.toUpperCase()}${topic.id.slice(1)}`] = {
      action: 'receive',
      channel: { $ref: `#/channels/${topic.id}` },
      summary: `Read ${topic.name} (schema version ${topic.version})`,
      messages: [{ $ref: `#/channels/${topic.id}/messages/${messageName}` }],
    };
  }

  const closeCodes = Object.entries(BROADCAST_CLOSE)
    .map(([name, code]) => `${code} ${name}`)
    .join(', ');
  messages.BroadcastClientMessage = {
    name: 'BroadcastClientMessage',
    title: 'A message the client sends',
    contentType: 'application/json',
    payload: { $ref: '#/components/schemas/BroadcastClientMessage' },
  };
  messages.BroadcastServerMessage = {
    name: 'BroadcastServerMessage',
    title: 'A message the server sends',
    contentType: 'application/json',
    payload: { $ref: '#/components/schemas/BroadcastServerMessage' },
  };
  channels.broadcast = {
    address: '/ws',
    title: 'Broadcast WebSocket',
    description: `Live tile changes, tile definitions (added, updated, removed), tiles whose history a replay replaced, and a live event tail. Authenticate with \`Authorization: Bearer\` at the upgrade or an \`auth\` message; subscribe to projects, resume with \`since\`. Close codes: ${closeCodes}. Details: services/broadcast/docs/protocol.md.`,
    servers: [{ $ref: '#/servers/broadcast' }],
    messages: {
      BroadcastClientMessage: { $ref: '#/components/messages/BroadcastClientMessage' },
      BroadcastServerMessage: { $ref: '#/components/messages/BroadcastServerMessage' },
    },
  };
  operations.sendBroadcastMessage = {
    action: 'send',
    channel: { $ref: '#/channels/broadcast' },
    summary: 'auth, subscribe (with since to resume), unsubscribe, tail (v1, live events with filters), untail, ping',
    messages: [{ $ref: '#/channels/broadcast/messages/BroadcastClientMessage' }],
  };
  operations.receiveBroadcastMessage = {
    action: 'receive',
    channel: { $ref: '#/channels/broadcast' },
    summary:
      'ready, snapshot, change, subscribed, error, unsubscribed, pong, tile_added, tile_updated, tile_removed (v1), tile_replaced (v1), tailing, event, skipped, untailed (v1)',
    messages: [{ $ref: '#/channels/broadcast/messages/BroadcastServerMessage' }],
  };

  return {
    asyncapi: '3.1.0',
    info: {
      title: 'Pulseboard topics and live updates',
      version: '1.0.0',
      description:
        "The Kafka topics Pulseboard writes (tap them with your own consumers) and the broadcast service's WebSocket protocol. Values are JSON (UTF-8) unless said otherwise; partitioning is murmur2 of the key, like the Java client. The HTTP API is in docs/openapi.json.",
      license: { name: 'Apache-2.0' },
    },
    servers: {
      kafka: { host: 'localhost:9092', protocol: 'kafka', description: 'The Kafka cluster (KAFKA_BROKERS)' },
      broadcast: { host: 'localhost:8081', protocol: 'ws', description: 'A broadcast instance (BROADCAST_PORT)' },
    },
    channels,
    operations,
    components: { schemas, messages },
  };
}

/** As committed: 2-space JSON and a final newline. */
export function serialiseAsyncApi(document: Json): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
