import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { existsSync, readFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { stablePort } from './stable-port.ts';
import { startPrivateBrokerContainer, usesContainers } from './containers.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * A second, private Kafka broker (same jars, own data and ports; a container
 * with TEST_INFRA=containers) that a test may stop and start without
 * disturbing the broker every other test shares.
 */
export async function startPrivateBroker(): Promise<{ brokers: string; stop(): Promise<void>; start(): Promise<void>; destroy(): Promise<void> }> {
  if (usesContainers()) return startPrivateBrokerContainer();
  const version = /<kafka.version>(.*)<\/kafka.version>/.exec(readFileSync(join(root, 'deploy/kafka/pom.xml'), 'utf8'))![1]!;
  const sharedState = process.env.PULSEBOARD_STATE_DIR ?? join(homedir(), '.cache/pulseboard');
  // Outside the ephemeral range: a test's stop() leaves the port unbound until start() binds it again.
  const port = await stablePort();
  const env = {
    ...process.env,
    PULSEBOARD_STATE_DIR: mkdtempSync(join(tmpdir(), 'pb-broker-')),
    KAFKA_LIB_DIR: join(sharedState, 'kafka', `lib-${version}`),
    KAFKA_PORT: String(port),
    KAFKA_CONTROLLER_PORT: String(await stablePort([port])),
    KAFKA_HEAP_OPTS: '-Xms128m -Xmx384m',
    // Not kafka.sh's 90 s: restarts beside a full suite run (load average 30-35 on 2 cores)
    // took up to 128 s, and 2 of 30 failed at 90 s ("did not become ready", the broker's log
    // ending in 'Kafka Server started'). Bounded still, and kafka.sh's message comes before ours.
    KAFKA_START_TIMEOUT_S: '180',
  };
  const script = join(root, 'deploy/kafka.sh');
  const logFile = join(env.PULSEBOARD_STATE_DIR, 'kafka', 'kafka.log');
  const start = async () => {
    try {
      await run('bash', [script, 'start'], { env, timeout: 300_000 });
    } catch (error) {
      // What the script said, and the broker's own log in full: the reason a start failed is in one of them.
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-200).join('\n') : '(no log file)';
      throw new Error(
        `private broker did not start on ${env.KAFKA_PORT}: ${(error as Error).message.split('\n')[0]}\n--- kafka.sh ---\n${stdout}${stderr}\n--- ${logFile} ---\n${log}`,
      );
    }
  };
  const destroy = async () => {
    await run('bash', [script, 'stop'], { env, timeout: 90_000 });
    await run('rm', ['-rf', env.PULSEBOARD_STATE_DIR]);
  };
  // No caller holds it yet to destroy it: a broker that did not get ready must not outlive the error.
  await start().catch(async (error: unknown) => {
    await destroy().catch(() => undefined);
    throw error;
  });
  return {
    brokers: `127.0.0.1:${env.KAFKA_PORT}`,
    start,
    stop: async () => {
      // kafka.sh waits up to 30 s for SIGTERM, then 10 s after SIGKILL, for the JVM to exit.
      await run('bash', [script, 'stop'], { env, timeout: 90_000 });
    },
    destroy,
  };
}
