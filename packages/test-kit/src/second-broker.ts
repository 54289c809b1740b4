import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { existsSync, readFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { freePort } from './processes.ts';
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
  const env = {
    ...process.env,
    PULSEBOARD_STATE_DIR: mkdtempSync(join(tmpdir(), 'pb-broker-')),
    KAFKA_LIB_DIR: join(sharedState, 'kafka', `lib-${version}`),
    KAFKA_PORT: String(await freePort()),
    KAFKA_CONTROLLER_PORT: String(await freePort()),
    KAFKA_HEAP_OPTS: '-Xms128m -Xmx384m',
  };
  const script = join(root, 'deploy/kafka.sh');
  const logFile = join(env.PULSEBOARD_STATE_DIR, 'kafka', 'kafka.log');
  const start = async () => {
    try {
      await run('bash', [script, 'start'], { env, timeout: 120000 });
    } catch (error) {
      // What the script said, and the broker's own log in full: the reason a start failed is in one of them.
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-200).join('\n') : '(no log file)';
      throw new Error(`private broker did not start on ${env.KAFKA_PORT}: ${(error as Error).message.split('\n')[0]}\n--- kafka.sh ---\n${stdout}${stderr}\n--- ${logFile} ---\n${log}`);
    }
  };
  await start();
  return {
    brokers: `127.0.0.1:${env.KAFKA_PORT}`,
    start,
    stop: async () => {
      await run('bash', [script, 'stop'], { env, timeout: 60000 });
    },
    destroy: async () => {
      await run('bash', [script, 'stop'], { env, timeout: 60000 });
      await run('rm', ['-rf', env.PULSEBOARD_STATE_DIR]);
    },
  };
}
