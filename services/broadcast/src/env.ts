import { commonEnvProperties, loadEnv, proxyEnvProperties, type EnvOf } from '@pulseboard/config';

const properties = {
  ...commonEnvProperties,
  // Client addresses behind an ingress (TRUST_PROXY); the credential the pass-through shows the gateway (INTERNAL_PROXY_SECRET).
  ...proxyEnvProperties,
  BROADCAST_PORT: {
    type: 'integer',
    minimum: 0,
    maximum: 65535,
    default: 8081,
    description: 'Port of the WebSocket endpoint /ws, the dashboard, /healthz, /readyz and /metrics.',
  },
  BROADCAST_HOST: { type: 'string', default: '0.0.0.0', description: 'Address broadcast listens on.' },
  BROADCAST_AUTH_TIMEOUT_MS: {
    type: 'integer',
    minimum: 100,
    default: 5000,
    description: 'A client that has not authenticated (at the upgrade or in its first message) within this long is closed.',
  },
  BROADCAST_AUTH_FAILURES_PER_MINUTE: {
    type: 'integer',
    minimum: 1,
    default: 20,
    description:
      "Failed WebSocket authentications a minute per client address and per key prefix (per instance) before a credential is looked up only when the gateway's valid-credential set knows it; others are refused (SECURITY.md).",
  },
  BROADCAST_HEARTBEAT_MS: {
    type: 'integer',
    minimum: 100,
    default: 15000,
    description: 'Ping interval; a peer that has not answered the previous ping by the next one is dropped.',
  },
  BROADCAST_MAX_BUFFERED_BYTES: {
    type: 'integer',
    minimum: 1024,
    default: 1048576,
    description: 'A client whose unsent bytes pass this is too slow: closed with 4008 instead of growing memory.',
  },
  BROADCAST_RESUME_MAX_CHANGES: {
    type: 'integer',
    minimum: 1,
    default: 1000,
    description: 'A resume that missed more changes than this gets a snapshot instead.',
  },
  BROADCAST_REVALIDATE_MS: {
    type: 'integer',
    minimum: 50,
    default: 500,
    description: 'How often the user tokens of open connections are checked again (users are not on the control feed).',
  },
  BROADCAST_CONTROL_POLL_MS: {
    type: 'integer',
    minimum: 100,
    default: 30000,
    description: 'Safety net under the control feed: how often project keys, projects and watched tiles are read again.',
  },
  BROADCAST_FOLLOW_CONTROL: {
    type: 'boolean',
    default: true,
    description: 'false: read the control feed but ignore it, leaving the safety poll alone. Only to show what the feed buys; never in production.',
  },
  BROADCAST_TAIL_MAX_PER_SECOND: {
    type: 'integer',
    minimum: 1,
    maximum: 10000,
    default: 50,
    description: 'Events a second a live event tail sends to one client; the rest are counted as skipped.',
  },
  BROADCAST_TAIL_LINGER_MS: {
    type: 'integer',
    minimum: 0,
    default: 10000,
    description: 'The events topic is read while someone tails, and this long after the last tail ended.',
  },
  BROADCAST_MAX_SUBSCRIPTIONS: { type: 'integer', minimum: 1, default: 50, description: 'Most subscriptions and tails one connection may hold.' },
  // Time-bounded batching (kafka-kit FetchPacer). Short: a rule engine sends its changes once per cycle already,
  // so a longer gather only delays frames; 5 ms still bounds the fetches (200 a second) when many engines commit.
  BROADCAST_GATHER_MS: {
    type: 'integer',
    minimum: 0,
    maximum: 1000,
    default: 5,
    description: "While tile changes flow, fetches are this far apart, so one fetch brings this long's changes; adds up to this much to every frame's latency.",
  },
  // Longer than for tile changes: events arrive one by one at the full rate.
  BROADCAST_TAIL_GATHER_MS: {
    type: 'integer',
    minimum: 0,
    maximum: 1000,
    default: 20,
    description: 'The same as BROADCAST_GATHER_MS for the events topic while someone tails a project.',
  },
  BROADCAST_MAX_MESSAGE_BYTES: {
    type: 'integer',
    minimum: 256,
    default: 4096,
    description: 'Largest message a client may send; a larger one closes the connection.',
  },
  BROADCAST_API_URL: {
    type: 'string',
    pattern: '^https?://',
    default: 'http://127.0.0.1:8080',
    description: "The gateway that the dashboard's /api/v1/* requests are passed to (so the page needs one origin).",
  },
  BROADCAST_DASHBOARD_DIR: { type: 'string', default: '', description: "The built dashboard's directory; empty: packages/dashboard/dist beside this service." },
} as const;

export type BroadcastEnv = EnvOf<typeof properties>;

export function loadBroadcastEnv(env: Record<string, string | undefined> = process.env): BroadcastEnv {
  return loadEnv<BroadcastEnv>(properties, env);
}

/** The schema itself: the Helm chart's test checks that the chart sets what it names. */
export const broadcastEnvProperties: Record<string, object> = properties;
