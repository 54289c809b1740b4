import Fastify from 'fastify';
import websocket from '@fastify/websocket';
import {
  SpanKind,
  createLogger,
  drainWithin,
  headerText,
  instrumentPool,
  kafkaBrokers,
  kafkaSecurity,
  registerEnvelopeErrors,
  registerHttpMetrics,
  registerOpsRoutes,
  startTracing,
  traceOne,
  TRACEPARENT,
  trustProxyOption,
  type Logger,
} from '@pulseboard/config';
import { BROADCAST_CLOSE, TOPICS } from '@pulseboard/contracts';
import { consume, createKafka, eachMessage, ensureTopics, instrumentKafka } from '@pulseboard/kafka-kit';
import { createPool } from '@pulseboard/db';
import type { BroadcastEnv } from './env.ts';
import { ClientConnection } from './connection.ts';
import { registerDashboard } from './dashboard.ts';
import { registerApiPass } from './api-pass.ts';
import { Hub } from './hub.ts';
import { createBroadcastMetrics } from './metrics.ts';
import { authenticateReader } from './repository.ts';
import { upgradeAuthentication, upgradePrincipal, type Authenticate } from './authentication.ts';
import { gatewayCredentialCheck, throttledAuthentication, WsAuthThrottle } from './auth-throttle.ts';
import { createClientMessageParser } from './client-messages.ts';
import { startHeartbeat } from './heartbeat.ts';
import { Revalidator, startRevalidationPolls } from './revalidation.ts';
import { TailFeed } from './tail-feed.ts';
import { runReplacementFeed } from './replacement-feed.ts';
import { TileViews } from './tile-views.ts';

export interface BroadcastService {
  url: string;
  /** Open connections (tests, benchmarks). */
  connections(): number;
  stop(): Promise<void>;
}

/** Composition root: builds every dependency once and passes it down. */
export async function startBroadcast(env: BroadcastEnv, logger: Logger = createLogger('broadcast', env.LOG_LEVEL)): Promise<BroadcastService> {
  const tracing = await startTracing('broadcast', env);
  const pool = createPool({ connectionString: env.DATABASE_URL, max: env.DATABASE_POOL_SIZE, applicationName: 'pulseboard-broadcast' });
  const metrics = createBroadcastMetrics();
  instrumentPool(metrics.registry, pool);
  // A project's tiles are followed while this instance has subscribers for it.
  let tiles: TileViews | undefined;
  const hub = new Hub({ last: (project) => tiles?.unwatch(project) });
  tiles = new TileViews({ pool, logger, publish: (project, frame) => hub.publishFrame(project, frame) });
  metrics.watchSubscriptions(() => hub.subscriptions());
  const parse = createClientMessageParser();
  // Failed credentials take the throttle's slots before their lookup; past the limit only what the gateway's
  // valid-credential set knows is looked up (auth-throttle.ts).
  const authenticate: Authenticate = throttledAuthentication({
    throttle: new WsAuthThrottle(env.BROADCAST_AUTH_FAILURES_PER_MINUTE),
    lookup: (token) => authenticateReader(pool, token),
    knownValid: gatewayCredentialCheck(env.BROADCAST_API_URL, env.INTERNAL_PROXY_SECRET),
    onLookup: () => metrics.credentialLookups.inc(),
  });

  const kafka = createKafka({ clientId: `${env.KAFKA_CLIENT_ID}-broadcast`, brokers: kafkaBrokers(env.KAFKA_BROKERS), logger, security: kafkaSecurity(env) });
  // The feed's group is the instance's own and never commits: no lag to read, batch sizes and membership only.
  // Readiness waits for the tile-change and control feeds, not for the live tail's consumer, which comes
  // and goes with the tails (a closed tail must not take the instance out of its Service).
  const tailGroupPrefix = `${env.KAFKA_CLIENT_ID}-broadcast-tail`;
  const kafkaSignals = instrumentKafka(kafka, metrics.registry, { transient: [`${tailGroupPrefix}-`] });
  await ensureTopics(kafka, [
    TOPICS.tileChanges.spec(env.TOPIC_TILE_CHANGES),
    TOPICS.tileReplacements.spec(env.TOPIC_TILE_REPLACEMENTS),
    TOPICS.control.spec(env.TOPIC_CONTROL),
    TOPICS.events.spec(env.TOPIC_EVENTS, env),
  ]);
  const connections = new Set<ClientConnection>();
  const revalidator = new Revalidator({ pool, logger, connections: () => connections });
  // Control-plane writes as they happen (every instance sees every one): tile edits go to the project's
  // subscribers, a regenerated key or deleted project ends what it opened at once. Before the socket opens.
  const control = await consume({
    kafka,
    logger,
    topic: env.TOPIC_CONTROL,
    group: { fanOut: `${env.KAFKA_CLIENT_ID}-broadcast-control` },
    offsets: 'none',
    decode: TOPICS.control.decode,
    handler: eachMessage((change) => {
      if (!env.BROADCAST_FOLLOW_CONTROL) return;
      tiles.changed(change.project_key, change.revision, change.change.startsWith('tile_') ? change.tile_id : undefined);
      if (change.change === 'project_key_regenerated' || change.change === 'project_deleted')
        void revalidator.now({ users: false, projects: new Set([change.project_key]) });
    }),
  });
  // The events topic, only while someone tails a project (tail-feed.ts).
  const tailFeed = new TailFeed({
    kafka,
    logger,
    topic: env.TOPIC_EVENTS,
    groupPrefix: tailGroupPrefix,
    gatherMs: env.BROADCAST_TAIL_GATHER_MS,
    lingerMs: env.BROADCAST_TAIL_LINGER_MS,
    onEvent: (outcome) => metrics.tailEvents.inc({ outcome }),
  });
  // Every instance reads every change; what came before it started is read from the history.
  const feed = await consume<{ projectKey: string; position: number; raw: string }>({
    kafka,
    gatherMs: env.BROADCAST_GATHER_MS,
    logger,
    topic: env.TOPIC_TILE_CHANGES,
    group: { fanOut: `${env.KAFKA_CLIENT_ID}-broadcast` },
    offsets: 'none',
    // Checked against the topic's schema; clients get the bytes as they came (no second serialisation).
    decode: (value) => {
      const decoded = TOPICS.tileChanges.decode(value);
      return decoded.ok
        ? { ok: true, value: { projectKey: decoded.value.project_key, position: decoded.value.position, raw: value!.toString('utf8') } }
        : decoded;
    },
    // A span per change (tracing on): the fan-out to this instance's subscribers, in the change's trace.
    handler: eachMessage(({ projectKey, position, raw }, message) => {
      metrics.changesReceived.inc();
      return traceOne(
        tracing,
        'broadcast publish',
        headerText(message.raw.headers?.[TRACEPARENT]),
        SpanKind.CONSUMER,
        { 'messaging.system': 'kafka', 'messaging.destination.name': env.TOPIC_TILE_CHANGES, 'pulseboard.project_key': projectKey },
        async () => void hub.publish(projectKey, position, raw),
      );
    }),
  });
  // Tiles whose history an applied replay replaced: their project's subscribers read it again (tile_replaced).
  const replacements = await runReplacementFeed({
    kafka,
    logger,
    topic: env.TOPIC_TILE_REPLACEMENTS,
    groupPrefix: `${env.KAFKA_CLIENT_ID}-broadcast-replacements`,
    publish: (project, frame) => void hub.publishFrame(project, frame),
  });
  await Promise.all([feed.whenReady(), control.whenReady(), replacements.whenReady()]);

  // X-Forwarded-For is believed only from the proxies TRUST_PROXY names (default: none).
  const app = Fastify({ logger: false, trustProxy: trustProxyOption(env.TRUST_PROXY) });
  // ws refuses a frame over maxPayload itself, with 1009: the bound is set above the protocol's
  // own limit so that an oversized message gets the documented 4000 (connection.ts), while ws
  // still drops anything huge before buffering it (found by the WebSocket fuzz suite).
  await app.register(websocket, { options: { maxPayload: Math.max(65536, 16 * env.BROADCAST_MAX_MESSAGE_BYTES) } });
  registerEnvelopeErrors(app);
  registerHttpMetrics(app, metrics.registry);
  registerDashboard(app, env.BROADCAST_DASHBOARD_DIR || undefined);
  registerApiPass(app, env.BROADCAST_API_URL, env.INTERNAL_PROXY_SECRET);
  // Ready while the feed is in its group and fetching: a client served now misses no change.
  registerOpsRoutes(app, {
    registry: metrics.registry,
    readiness: () => ({ kafka_group: kafkaSignals.joined() && feed.ready() && control.ready() && replacements.ready() }),
  });

  const deps = { env, pool, logger, metrics, hub, tiles, tailFeed, authenticate, parse };
  app.register(async (ws) => {
    // A credential in the Authorization header is checked before the upgrade: a bad one is 401, no socket.
    ws.addHook('preValidation', upgradeAuthentication(authenticate));
    ws.get('/ws', { websocket: true }, (socket, request) => {
      const connection = new ClientConnection(socket, deps, upgradePrincipal(request), request.ip);
      connections.add(connection);
      metrics.connections.inc();
      socket.on('close', () => {
        connections.delete(connection);
        metrics.connections.dec();
      });
    });
  });

  // Heartbeat: a peer that did not answer the last ping is gone (heartbeat.ts).
  const stopHeartbeat = startHeartbeat(() => connections, env.BROADCAST_HEARTBEAT_MS);

  // User tokens every REVALIDATE_MS (not on the feed); everything the feed carries every CONTROL_POLL_MS, a safety net.
  const stopPolls = startRevalidationPolls(revalidator, () => void tiles.refreshAll(), {
    usersMs: env.BROADCAST_REVALIDATE_MS,
    allMs: env.BROADCAST_CONTROL_POLL_MS,
  });

  const address = await app.listen({ port: env.BROADCAST_PORT, host: env.BROADCAST_HOST });
  logger.info({ event: 'broadcast_started', address, topic: env.TOPIC_TILE_CHANGES, group: feed.groupId });
  // Without it the gateway counts every dashboard API call as broadcast's own address (SECURITY.md, Trusted proxies).
  if (env.INTERNAL_PROXY_SECRET === '')
    logger.warn({
      event: 'internal_proxy_secret_unset',
      effect:
        "the gateway counts the dashboard's API calls as broadcast's address, and past the WebSocket failed-authentication limit valid credentials are refused too (the gateway's valid-credential set cannot be asked)",
    });

  let stopping: Promise<void> | undefined;
  return {
    url: address.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1'),
    connections: () => connections.size,
    stop() {
      // Order: no new changes, tell clients to go elsewhere (they resume from the history), then close.
      stopHeartbeat();
      stopPolls();
      stopping ??= drainWithin(env.SHUTDOWN_TIMEOUT_MS, logger, 'broadcast', [
        ['feeds', () => Promise.all([feed.stop(), control.stop(), replacements.stop(), tailFeed.stop()])],
        [
          'clients',
          () => {
            for (const c of connections) c.close(BROADCAST_CLOSE.goingAway, 'server shutting down', 'going_away');
          },
        ],
        ['http', () => app.close()],
        ['postgres', () => pool.end()],
        ['tracing', () => tracing.shutdown()],
      ]);
      return stopping;
    },
  };
}
