import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { stablePort } from './stable-port.ts';
import { waitFor } from './wait-for.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface SecureBroker {
  /** Bootstrap address of the SASL_SSL listener (SCRAM-SHA-256/512, PLAIN, OAUTHBEARER). */
  saslSsl: string;
  /** Bootstrap address of the SSL listener that requires a client certificate (mTLS). */
  mtls: string;
  /** PEM files made for this broker: the throwaway CA, and a client certificate and key it signed. */
  caFile: string;
  clientCertFile: string;
  clientKeyFile: string;
  /** A CA that signed nothing of this broker's, for "untrusted certificate" cases. */
  otherCaFile: string;
  /** SCRAM-SHA-256 and -512 credentials, created with the broker's own StorageTool. */
  scram: { username: string; password: string };
  /** A PLAIN user of the SASL_SSL listener's JAAS configuration. */
  plain: { username: string; password: string };
  /** An unsecured OAUTHBEARER token (alg none) for `sub`, which the broker's default validator accepts. */
  oauthToken(sub: string): string;
  /** A file under the broker's directory (a password or token file for a test). */
  writeFile(name: string, content: string): string;
  /** Stops the JVM (SIGTERM, SIGKILL after 30 s) and removes its directory. */
  destroy(): Promise<void>;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function openssl(cwd: string, ...args: string[]): Promise<void> {
  await run('openssl', args, { cwd, timeout: 60_000 });
}

/** A CA, a broker certificate for 127.0.0.1/localhost and a client certificate, all PEM, made with openssl. */
async function makeCertificates(dir: string): Promise<void> {
  const days = '2';
  await openssl(dir, 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', days, '-subj', '/CN=pulseboard-test-ca');
  await openssl(
    dir,
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'other-ca.key',
    '-out',
    'other-ca.pem',
    '-days',
    days,
    '-subj',
    '/CN=pulseboard-other-ca',
  );
  writeFileSync(join(dir, 'broker.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n');
  writeFileSync(join(dir, 'client.ext'), 'extendedKeyUsage=clientAuth\n');
  for (const [name, cn] of [
    ['broker', 'localhost'],
    ['client', 'pulseboard-client'],
  ] as const) {
    await openssl(dir, 'req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`);
    await openssl(
      dir,
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.pem`,
      '-days',
      days,
      '-extfile',
      `${name}.ext`,
    );
  }
  // A PEM keystore: the (PKCS#8, unencrypted) key, then the certificate chain.
  writeFileSync(
    join(dir, 'broker-keystore.pem'),
    readFileSync(join(dir, 'broker.key'), 'utf8') + readFileSync(join(dir, 'broker.pem'), 'utf8') + readFileSync(join(dir, 'ca.pem'), 'utf8'),
  );
}

/**
 * A throwaway single-node KRaft broker from the same Maven jars as deploy/kafka.sh, with a
 * SASL_SSL listener and an mTLS listener for clients (a CA and certificates made here with
 * openssl, SCRAM users created with `kafka.tools.StorageTool format --add-scram`). The
 * controller and the broker's own inter-broker listener stay PLAINTEXT on loopback.
 */
export async function startSecureBroker(): Promise<SecureBroker> {
  const dir = mkdtempSync(join(tmpdir(), 'pb-secure-broker-'));
  const lib = (await run('bash', [join(root, 'deploy/kafka.sh'), 'jars'], { timeout: 600_000 })).stdout.trim().split('\n').pop()!;
  const ports: number[] = [];
  for (let i = 0; i < 4; i++) ports.push(await stablePort(ports));
  const [saslPort, mtlsPort, internalPort, controllerPort] = ports as [number, number, number, number];
  const scram = { username: 'pulseboard', password: randomBytes(18).toString('base64url') };
  const plain = { username: 'pulseboard-plain', password: randomBytes(18).toString('base64url') };
  let broker: ChildProcess | undefined;

  const destroy = async () => {
    if (broker !== undefined && broker.exitCode === null && broker.signalCode === null) {
      const exited = new Promise((resolve) => broker!.once('exit', resolve));
      broker.kill('SIGTERM');
      const timer = setTimeout(() => broker!.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await makeCertificates(dir);
    const host = '127.0.0.1';
    const jaas = (module: string, options = '') => `org.apache.kafka.common.security.${module} required${options};`;
    writeFileSync(
      join(dir, 'server.properties'),
      [
        'node.id=1',
        'process.roles=broker,controller',
        `listeners=INTERNAL://${host}:${internalPort},CONTROLLER://${host}:${controllerPort},SASL_SSL://${host}:${saslPort},MTLS://${host}:${mtlsPort}`,
        `advertised.listeners=INTERNAL://${host}:${internalPort},SASL_SSL://${host}:${saslPort},MTLS://${host}:${mtlsPort}`,
        'listener.security.protocol.map=INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_SSL:SASL_SSL,MTLS:SSL',
        'inter.broker.listener.name=INTERNAL',
        'controller.listener.names=CONTROLLER',
        `controller.quorum.voters=1@${host}:${controllerPort}`,
        'sasl.enabled.mechanisms=SCRAM-SHA-256,SCRAM-SHA-512,PLAIN,OAUTHBEARER',
        `listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config=${jaas('scram.ScramLoginModule')}`,
        `listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=${jaas('scram.ScramLoginModule')}`,
        `listener.name.sasl_ssl.plain.sasl.jaas.config=${jaas('plain.PlainLoginModule', ` user_${plain.username}="${plain.password}"`)}`,
        // No server callback handler: Kafka's unsecured validator, which accepts unsigned (alg none) tokens.
        `listener.name.sasl_ssl.oauthbearer.sasl.jaas.config=${jaas('oauthbearer.OAuthBearerLoginModule')}`,
        'ssl.keystore.type=PEM',
        `ssl.keystore.location=${join(dir, 'broker-keystore.pem')}`,
        'ssl.truststore.type=PEM',
        `ssl.truststore.location=${join(dir, 'ca.pem')}`,
        'listener.name.mtls.ssl.client.auth=required',
        `log.dirs=${join(dir, 'data')}`,
        'num.partitions=3',
        'num.network.threads=2',
        'num.io.threads=2',
        'offsets.topic.replication.factor=1',
        'offsets.topic.num.partitions=3',
        'transaction.state.log.replication.factor=1',
        'transaction.state.log.min.isr=1',
        'group.initial.rebalance.delay.ms=0',
        'auto.create.topics.enable=true',
        '',
      ].join('\n'),
    );
    // Kafka logs through log4j 1 (reload4j) and, for a few classes, log4j2: a configuration for each, on stdout.
    writeFileSync(
      join(dir, 'log4j.properties'),
      [
        'log4j.rootLogger=INFO, stdout',
        'log4j.appender.stdout=org.apache.log4j.ConsoleAppender',
        'log4j.appender.stdout.layout=org.apache.log4j.PatternLayout',
        'log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'log4j2.properties'),
      [
        'status=error',
        'appender.out.type=Console',
        'appender.out.name=OUT',
        'appender.out.layout.type=PatternLayout',
        'appender.out.layout.pattern=[%d] %p %m (%c)%n',
        'rootLogger.level=info',
        'rootLogger.appenderRef.out.ref=OUT',
        '',
      ].join('\n'),
    );
    // Small heaps and the client compiler only: the machine is shared with the suite's other brokers and services.
    const java = (args: string[], heap = ['-Xmx128m']) => [
      ...heap,
      '-XX:TieredStopAtLevel=1',
      '-XX:+UseSerialGC',
      `-Dlog4j.configuration=file:${join(dir, 'log4j.properties')}`,
      `-Dlog4j2.configurationFile=${join(dir, 'log4j2.properties')}`,
      '-cp',
      `${lib}/*`,
      ...args,
    ];
    const clusterId = (await run('java', java(['kafka.tools.StorageTool', 'random-uuid']), { timeout: 120_000 })).stdout.trim().split('\n').pop()!;
    await run(
      'java',
      java([
        'kafka.tools.StorageTool',
        'format',
        '-t',
        clusterId,
        '-c',
        join(dir, 'server.properties'),
        '--add-scram',
        `SCRAM-SHA-256=[name=${scram.username},password=${scram.password}]`,
        '--add-scram',
        `SCRAM-SHA-512=[name=${scram.username},password=${scram.password}]`,
      ]),
      { timeout: 120_000 },
    );
    const logFile = join(dir, 'kafka.log');
    const log = openSync(logFile, 'a');
    broker = spawn('java', java(['-Djava.awt.headless=true', 'kafka.Kafka', join(dir, 'server.properties')], ['-Xms64m', '-Xmx256m']), {
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    const readLog = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
    try {
      await waitFor(
        async () => {
          if (broker!.exitCode !== null) throw new Error(`the broker exited (${broker!.exitCode})`);
          return readLog().includes('Kafka Server started') && (await portOpen(saslPort));
        },
        { timeoutMs: 180_000, intervalMs: 250, what: 'the SASL_SSL broker to start' },
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- ${logFile} ---\n${readLog().split('\n').slice(-80).join('\n')}`);
    }
  } catch (error) {
    await destroy();
    throw error;
  }

  const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return {
    saslSsl: `127.0.0.1:${saslPort}`,
    mtls: `127.0.0.1:${mtlsPort}`,
    caFile: join(dir, 'ca.pem'),
    clientCertFile: join(dir, 'client.pem'),
    clientKeyFile: join(dir, 'client.key'),
    otherCaFile: join(dir, 'other-ca.pem'),
    scram,
    plain,
    oauthToken(sub) {
      const now = Math.floor(Date.now() / 1000);
      return `${base64url({ alg: 'none' })}.${base64url({ sub, iat: now, exp: now + 3600 })}.`;
    },
    writeFile(name, content) {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
    destroy,
  };
}
