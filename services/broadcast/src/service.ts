import Fastify from 'fastify';
import websocket from '@fastify/websocket';
import { SpanKind, createLogger, drainWithin, headerText, instrumentPool, kafkaBrokers, registerEnvelopeErrors, registerHttpMetrics, registerOpsRoutes, startTracing, traceOne, TRACEPARENT, type Logger } from '@pulseboard/config';
import { BROADCAST_CLOSE, PulseboardError, TOPICS, bearerToken, broadcastClientMessageSchema, createAjv, credentialKind, hashSecret, type BroadcastClientMessage } from '@pulseboard/contracts';
import { createKafka, ensureTopics, instrumentKafka, runFanOutConsumer } from '@pulseboard/kafka-kit';
import { createPool } from '@pulseboard/db';
import type { BroadcastEnv } from './env.ts';
import { ClientConnection } from './connection.ts';
import { registerDashboard } from './dashboard.ts';
import { registerApiPass } from './api-pass.ts';
import { Hub } from './hub.ts';
import { createBroadcastMetrics } from './metrics.ts';
import { accountProjects, projectByKeyHash, userByTokenHash, type Principal } from './repository.ts';
import { Revalidator } from './revalidation.ts';
import { TailFeed } from './tail-feed.ts';
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
  const ajv = createAjv();
  const validate = ajv.compile<BroadcastClientMessage>(broadcastClientMessageSchema);
  const parse = (text: string): BroadcastClientMessage | undefined => {
    try {
      const value: unknown = JSON.parse(text);
      return validate(value) ? value : undefined;
    } catch {
      return undefined;
    }
  };

  const authenticate = async (token: string): Promise<Principal | undefined> => {
    const kind = credentialKind(token);
    const hash = hashSecret(token);
    if (kind === 'project') {
      const project = await projectByKeyHash(pool, hash);
      return project === undefined ? undefined : { kind, credentialHash: hash, projects: [project] };
    }
    if (kind === 'user') {
      const user = await userByTokenHash(pool, hash);
      return user === undefined ? undefined : { kind, credentialHash: hash, accountId: user.account_id, projects: await accountProjects(pool, user.account_id) };
    }
    return undefined;
  };

  const kafka = createKafka({ clientId: `${env.KAFKA_CLIENT_ID}-broadcast`, brokers: kafkaBrokers(env.KAFKA_BROKERS), logger });
  // The feed's group is the instance's own and never commits: no lag to read, batch sizes and membership only.
  const kafkaSignals = instrumentKafka(kafka, metrics.registry);
  await ensureTopics(kafka, [TOPICS.tileChanges.spec(env.TOPIC_TILE_CHANGES), TOPICS.control.spec(env.TOPIC_CONTROL), TOPICS.events.spec(env.TOPIC_EVENTS, env)]);
  const connections = new Set<ClientConnection>();
  const revalidator = new Revalidator({ pool, logger, connections: () => connections });
  // Control-plane writes as they happen (every instance sees every one): tile edits go to the project's
  // subscribers, a regenerated key or deleted project ends what it opened at once. Before the socket opens.
  const control = await runFanOutConsumer({
    kafka,
    logger,
    topic: env.TOPIC_CONTROL,
    groupPrefix: `${env.KAFKA_CLIENT_ID}-broadcast-control`,
    decode: TOPICS.control.decode,
    handle: (change) => {
      tiles.changed(change.project_key, change.revision);
      if (change.change === 'project_key_regenerated' || change.change === 'project_deleted') void revalidator.now({ users: false, projects: new Set([change.project_key]) });
    },
  });
  // The events topic, only while someone tails a project (tail-feed.ts).
  const tailFeed = new TailFeed({
    kafka,
    logger,
    topic: env.TOPIC_EVENTS,
    groupPrefix: `${env.KAFKA_CLIENT_ID}-broadcast-tail`,
    gatherMs: env.BROADCAST_GATHER_MS,
    lingerMs: env.BROADCAST_TAIL_LINGER_MS,
    onEvent: (outcome) => metrics.tailEvents.inc({ outcome }),
  });
  // Every instance reads every change; what came before it started is read from the history.
  const feed = await runFanOutConsumer<{ projectKey: string; position: number; raw: string }>({
    kafka,
    gatherMs: env.BROADCAST_GATHER_MS,
    logger,
    topic: env.TOPIC_TILE_CHANGES,
    groupPrefix: `${env.KAFKA_CLIENT_ID}-broadcast`,
    // Checked against the topic's schema; clients get the bytes as they came (no second serialisation).
    decode: (value) => {
      const decoded = TOPICS.tileChanges.decode(value);
      return decoded.ok ? { ok: true, value: { projectKey: decoded.value.project_key, position: decoded.value.position, raw: value!.toString('utf8') } } : decoded;
    },
    handle: ({ projectKey, position, raw }, message) => {
      metrics.changesReceived.inc();
      if (!tracing.enabled) {
        hub.publish(projectKey, position, raw);
        return;
      }
      // A span per change (tracing on): the fan-out to this instance's subscribers, in the change's trace.
      return traceOne(tracing, 'broadcast publish', headerText(message.headers?.[TRACEPARENT]), SpanKind.CONSUMER, { 'messaging.system': 'kafka', 'messaging.destination.name': env.TOPIC_TILE_CHANGES, 'pulseboard.project_key': projectKey }, async () => void hub.publish(projectKey, position, raw));
    },
  });
  await Promise.all([feed.whenReady(), control.whenReady()]);

  const app = Fastify({ logger: false });
  // ws refuses a frame over maxPayload itself, with 1009: the bound is set above the protocol's
  // own limit so that an oversized message gets the documented 4000 (connection.ts), while ws
  // still drops anything huge before buffering it (found by the WebSocket fuzz suite).
  await app.register(websocket, { options: { maxPayload: Math.max(65536, 16 * env.BROADCAST_MAX_MESSAGE_BYTES) } });
  registerEnvelopeErrors(app);
  registerHttpMetrics(app, metrics.registry);
  registerDashboard(app, env.BROADCAST_DASHBOARD_DIR || undefined);
  registerApiPass(app, env.BROADCAST_API_URL);
  // Ready while the feed is in its group and fetching: a client served now misses no change.
  registerOpsRoutes(app, { registry: metrics.registry, readiness: () => ({ kafka_group: kafkaSignals.joined() && feed.ready() && control.ready() }) });

  const deps = { env, pool, logger, metrics, hub, tiles, tailFeed, authenticate, parse };
  app.register(async (ws) => {
    // A credential in the Authorization header is checked before the upgrade: a bad one is 401, no socket.
    ws.addHook('preValidation', async (request, reply) => {
      const token = bearerToken(request.headers.authorization);
      if (token === undefined) return;
      const principal = await authenticate(token);
      if (principal === undefined) {
        const refused = new PulseboardError('invalid_api_key');
        return reply.code(refused.status).send({ error: { code: refused.code, message: refused.message } });
      }
      (request as { principal?: Principal }).principal = principal;
    });
    ws.get('/ws', { websocket: true }, (socket, request) => {
      const connection = new ClientConnection(socket, deps, (request as { principal?: Principal }).principal);
      connections.add(connection);
      metrics.connections.inc();
      socket.on('close', () => {
        connections.delete(connection);
        metrics.connections.dec();
      });
    });
  });

  // Heartbeat: a peer that did not answer the last ping is gone.
  const heartbeat = setInterval(() => {
    for (const c of connections) {
      if (!c.alive) {
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      c.ws.ping();
    }
  }, env.BROADCAST_HEARTBEAT_MS);

  // User tokens are not on the control feed: checked again every REVALIDATE_MS. Everything the feed
  // carries is read again every CONTROL_POLL_MS, only a safety net for a lost message.
  const revalidateUsers = setInterval(() => revalidator.poll({ users: true, projects: new Set() }), env.BROADCAST_REVALIDATE_MS);
  const safetyPoll = setInterval(() => {
    revalidator.poll({ users: true, projects: 'all' });
    tiles.refreshAll();
  }, env.BROADCAST_CONTROL_POLL_MS);

  const address = await app.listen({ port: env.BROADCAST_PORT, host: env.BROADCAST_HOST });
  logger.info({ event: 'broadcast_started', address, topic: env.TOPIC_TILE_CHANGES, group: feed.groupId });

  let stopping: Promise<void> | undefined;
  return {
    url: address.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1'),
    connections: () => connections.size,
    stop() {
      // Order: no new changes, tell clients to go elsewhere (they resume from the history), then close.
      clearInterval(heartbeat);
      clearInterval(revalidateUsers);
      clearInterval(safetyPoll);
      stopping ??= drainWithin(env.SHUTDOWN_TIMEOUT_MS, logger, 'broadcast', [
        ['feeds', () => Promise.all([feed.stop(), control.stop(), tailFeed.stop()])],
        ['clients', () => {
          for (const c of connections) c.close(BROADCAST_CLOSE.goingAway, 'server shutting down', 'going_away');
        }],
        ['http', () => app.close()],
        ['postgres', () => pool.end()],
        ['tracing', () => tracing.shutdown()],
      ]);
      return stopping;
    },
  };
}
