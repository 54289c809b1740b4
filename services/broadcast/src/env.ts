import { commonEnvProperties, loadEnv, type EnvOf } from '@pulseboard/config';

const properties = {
  ...commonEnvProperties,
  BROADCAST_PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8081 },
  BROADCAST_HOST: { type: 'string', default: '0.0.0.0' },
  // A browser authenticates in its first message: this long at most.
  BROADCAST_AUTH_TIMEOUT_MS: { type: 'integer', minimum: 100, default: 5000 },
  // Ping interval; a peer that has not answered the previous ping by the next one is dropped.
  BROADCAST_HEARTBEAT_MS: { type: 'integer', minimum: 100, default: 15000 },
  // A client whose unsent bytes pass this is too slow: closed with 4008 instead of growing memory.
  BROADCAST_MAX_BUFFERED_BYTES: { type: 'integer', minimum: 1024, default: 1048576 },
  // A resume that missed more changes than this gets a snapshot instead.
  BROADCAST_RESUME_MAX_CHANGES: { type: 'integer', minimum: 1, default: 1000 },
  // How often user tokens of open connections are checked again (a deleted user or new token is not on the control feed).
  BROADCAST_REVALIDATE_MS: { type: 'integer', minimum: 50, default: 500 },
  // The safety net under the control feed: project keys, projects and watched tiles read again this often.
  BROADCAST_CONTROL_POLL_MS: { type: 'integer', minimum: 100, default: 30000 },
  // false: the control feed is read but ignored, leaving the safety poll alone (only to show what the feed buys: tests/e2e/dashboard).
  BROADCAST_FOLLOW_CONTROL: { type: 'boolean', default: true },
  // A live event tail sends at most this many events a second to a client (the rest are counted as skipped).
  BROADCAST_TAIL_MAX_PER_SECOND: { type: 'integer', minimum: 1, maximum: 10000, default: 50 },
  // The events topic is read while someone tails, and this long after the last tail ended.
  BROADCAST_TAIL_LINGER_MS: { type: 'integer', minimum: 0, default: 10000 },
  BROADCAST_MAX_SUBSCRIPTIONS: { type: 'integer', minimum: 1, default: 50 },
  // Time-bounded batching of tile changes (kafka-kit FetchPacer): while changes flow, fetches are this far
  // apart, so one fetch brings this long's changes; part of every frame's latency (at most this much).
  // Short: a rule engine sends its changes once per cycle already, so a longer gather only delays frames
  // (20 ms added 14 to 24 ms to the frame p50, docs/performance.md); 5 ms still bounds the fetches
  // (200 a second) when many engines commit.
  BROADCAST_GATHER_MS: { type: 'integer', minimum: 0, maximum: 1000, default: 5 },
  // The same for the events topic while someone tails a project: events arrive one by one at the full rate.
  BROADCAST_TAIL_GATHER_MS: { type: 'integer', minimum: 0, maximum: 1000, default: 20 },
  BROADCAST_MAX_MESSAGE_BYTES: { type: 'integer', minimum: 256, default: 4096 },
  // The gateway the dashboard's /api/v1/* requests are passed to (same origin for the page).
  BROADCAST_API_URL: { type: 'string', pattern: '^https?://', default: 'http://127.0.0.1:8080' },
  // The built dashboard (packages/dashboard/dist); empty: that directory beside this service.
  BROADCAST_DASHBOARD_DIR: { type: 'string', default: '' },
} as const;

export type BroadcastEnv = EnvOf<typeof properties>;

export function loadBroadcastEnv(env: Record<string, string | undefined> = process.env): BroadcastEnv {
  return loadEnv<BroadcastEnv>(properties, env);
}

/** The schema itself: the Helm chart's test checks that the chart sets what it names. */
export const broadcastEnvProperties: Record<string, object> = properties;
