import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { commonEnvProperties, kafkaSecurity, loadEnv, type EnvOf } from '../../packages/config/src/index.ts';
import { createKafka, ensureTopics } from '@pulseboard/kafka-kit';
import { envelope, request, serviceTestEnv, SOURCE_NODE_ARGS, startSecureBroker, uniqueName, waitFor, type SecureBroker } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';
import { TestSocket } from './ws-client.ts';

const CPU_RULE = { filter: { type: 'metric', name: 'cpu' }, evaluation: { kind: 'threshold', attribute: 'value', warning: 80, critical: 95 } };
const logger = pino({ level: 'silent' });
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A client of the services' own making (createKafka + kafkaSecurity of a validated environment) creates a topic and writes to it. */
async function roundTrip(settings: Record<string, string>): Promise<void> {
  const env = loadEnv<EnvOf<typeof commonEnvProperties>>(commonEnvProperties, settings);
  const kafka = createKafka({ clientId: 'security-test', brokers: [env.KAFKA_BROKERS], logger, security: kafkaSecurity(env) });
  const topic = uniqueName('secure');
  await ensureTopics(kafka, [{ topic, numPartitions: 1 }]);
  const producer = kafka.producer();
  await producer.connect();
  try {
    await producer.send({ topic, messages: [{ value: 'hello' }] });
  } finally {
    await producer.disconnect();
  }
}

/** How a connection attempt ends, and how long it took. */
async function failure(settings: Record<string, string>): Promise<{ message: string; tookMs: number }> {
  const started = Date.now();
  try {
    await roundTrip(settings);
  } catch (error) {
    return { message: (error as Error).message, tookMs: Date.now() - started };
  }
  throw new Error('the client connected');
}

describe('Kafka over TLS and SASL: a SASL_SSL broker of our own (throwaway CA, SCRAM users from StorageTool)', () => {
  let broker: SecureBroker;
  let tls: Record<string, string>;
  let scram: Record<string, string>;

  beforeAll(async () => {
    broker = await startSecureBroker();
    tls = { KAFKA_BROKERS: broker.saslSsl, KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: broker.caFile };
    scram = {
      ...tls,
      KAFKA_SASL_MECHANISM: 'scram-sha-256',
      KAFKA_SASL_USERNAME: broker.scram.username,
      KAFKA_SASL_PASSWORD_FILE: broker.writeFile('scram-password', `${broker.scram.password}\n`),
    };
  }, 300_000);
  afterAll(async () => {
    await broker?.destroy();
  });

  it('runs ingest → store → rule engine → broadcast through SASL_SSL with SCRAM-SHA-256 (password and CA from files)', async () => {
    const pipeline = await startPipeline(scram);
    try {
      await pipeline.startStore();
      await pipeline.startRuleEngine();
      const broadcast = await pipeline.startBroadcast();
      const project = await pipeline.provision({ burstLimit: 1000, hourlyLimit: 1000 });
      const tile = await request(`${pipeline.url}/api/v1/tiles`, { token: project.apiKey, body: { name: 'CPU', kind: 'metric', rule: CPU_RULE } });
      expect(tile.status).toBe(201);

      const socket = await TestSocket.open(broadcast.url, { headerToken: project.apiKey });
      try {
        await socket.next((m) => m.type === 'ready');
        socket.send({ type: 'subscribe', project: project.projectKey });
        await socket.next((m) => m.type === 'subscribed' && m.project === project.projectKey);

        const sent = await request(`${pipeline.url}/ingest`, {
          token: project.apiKey,
          body: envelope(project.projectKey, { type: 'metric', name: 'cpu', timestamp: new Date().toISOString(), attributes: { value: 97 } }),
        });
        expect(sent.status).toBe(201);
        const change = (await socket.next((m) => m.type === 'change', { timeoutMs: 60_000 })).change;
        expect(change).toMatchObject({
          tile_id: tile.body.data.id,
          project_key: project.projectKey,
          status: 'critical',
          value: 97,
          event_id: sent.body.event_id,
        });

        // The store consumed it over the same listener.
        await waitFor(async () => (await request(`${pipeline.url}/api/v1/events/${sent.body.event_id}`, { token: project.apiKey })).status === 200, {
          timeoutMs: 60_000,
          what: 'the event to be stored',
        });
      } finally {
        socket.close();
      }
    } finally {
      await pipeline.stop();
    }
  }, 300_000);

  it('a wrong password stops a service at start-up, within seconds, with an error naming KAFKA_SASL_PASSWORD', async () => {
    const env = serviceTestEnv({ ...scram, KAFKA_SASL_PASSWORD_FILE: '', KAFKA_SASL_PASSWORD: `${broker.scram.password}-wrong` });
    const started = Date.now();
    const store = spawn(process.execPath, [...SOURCE_NODE_ARGS, 'services/store/src/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    store.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    store.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const hang = setTimeout(() => store.kill('SIGKILL'), 60_000);
    const [code] = (await once(store, 'exit')) as [number | null];
    clearTimeout(hang);
    expect(code).toBe(1);
    expect(output).toMatch(/Kafka refused to authenticate .*-store .*check KAFKA_SASL_USERNAME \("pulseboard"\) and KAFKA_SASL_PASSWORD\b/);
    expect(output).not.toContain(broker.scram.password);
    expect(output).not.toContain('"store_started"');
    // No hang: kafkajs does not retry a refused authentication (the process start itself takes most of it).
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 90_000);

  it('SCRAM-SHA-512, PLAIN and OAUTHBEARER (a token file) over SASL_SSL, and mutual TLS, each create a topic and write to it', async () => {
    await roundTrip({ ...tls, KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: broker.scram.username, KAFKA_SASL_PASSWORD: broker.scram.password });
    await roundTrip({ ...tls, KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: broker.plain.username, KAFKA_SASL_PASSWORD: broker.plain.password });
    const tokenFile = broker.writeFile('oauth-token', broker.oauthToken('pulseboard'));
    await roundTrip({ ...tls, KAFKA_SASL_MECHANISM: 'oauthbearer', KAFKA_SASL_OAUTHBEARER_TOKEN_FILE: tokenFile });
    await roundTrip({
      KAFKA_BROKERS: broker.mtls,
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: broker.caFile,
      KAFKA_SSL_CERT_FILE: broker.clientCertFile,
      KAFKA_SSL_KEY_FILE: broker.clientKeyFile,
    });
  }, 120_000);

  it('a CA that did not sign the brokers, or an expired token, fails in bounded time naming the setting to check', async () => {
    const untrusted = await failure({ ...scram, KAFKA_SSL_CA_FILE: broker.otherCaFile });
    expect(untrusted.message).toMatch(/does not trust the Kafka brokers' certificate .*check KAFKA_SSL_CA_FILE/);
    expect(untrusted.tookMs).toBeLessThan(30_000);

    const now = Math.floor(Date.now() / 1000);
    const expired = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'pulseboard', iat: now - 7200, exp: now - 3600 })).toString('base64url')}.`;
    const refused = await failure({
      ...tls,
      KAFKA_SASL_MECHANISM: 'oauthbearer',
      KAFKA_SASL_OAUTHBEARER_TOKEN_FILE: broker.writeFile('expired-token', expired),
    });
    expect(refused.message).toMatch(/could not use any Kafka broker .*KAFKA_SASL_OAUTHBEARER_TOKEN_FILE/);
    expect(refused.tookMs).toBeLessThan(30_000);
  }, 120_000);
});
