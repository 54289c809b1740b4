import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { stablePort } from './stable-port.ts';
import { waitFor } from './wait-for.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * A port free a moment ago, for a server a test is about to start (often in
 * a process of its own, seconds later). Drawn outside the kernel's ephemeral
 * range (stablePort): a listen(0) port is the kind every other listen(0) and
 * outgoing connection of the run draws from, so it could be handed to someone
 * else before the server bound it; CI lost a Redis Cluster node that way.
 * `exclude`: ports already chosen for servers not started yet.
 */
export function freePort(exclude: readonly number[] = []): Promise<number> {
  return stablePort(exclude);
}

/** How long a signalled service may take to drain and exit. */
const EXIT_DEADLINE_MS = 20_000;

export interface ServiceProcess {
  child: ChildProcess;
  logs: string[];
  /** Sends the signal and waits for the process to exit; one still running after 20 s is killed and reported (rejects). */
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Node's arguments for running the workspace's TypeScript sources: tsx, and the
 * export condition under which each workspace package resolves to its src/
 * (without it, to its compiled dist/, as in production).
 */
export const SOURCE_NODE_ARGS: readonly string[] = ['-C', '@pulseboard/source', '--import', 'tsx'];

export interface SpawnOptions {
  /** The log event that says it is up (default `<service>_started`). */
  startedEvent?: string;
  /** Node's own arguments, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
  /** Run the compiled dist/main.js (`pnpm build`), as production does, instead of the sources. */
  compiled?: boolean;
}

/**
 * Runs a service in its own process, from its sources (or, `compiled`, from
 * its build), and waits for its `<name>_started` log event. Tests use it where
 * a real process boundary matters: killing a consumer mid-stream, two gateway
 * instances.
 */
export async function spawnService(service: string, env: Record<string, string>, options: SpawnOptions = {}): Promise<ServiceProcess> {
  const startedEvent = options.startedEvent ?? `${service.replaceAll('-', '_')}_started`;
  const entry = options.compiled ? [`services/${service}/dist/main.js`] : [...SOURCE_NODE_ARGS, `services/${service}/src/main.ts`];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...entry], {
    cwd: root,
    // info at least: the start-up event is how we know it is up.
    // The service's own drain bound below the kit's exit deadline: a drain slowed past it (a loaded
    // machine) ends by the service's rule, logging shutdown_timed_out with the step it was at.
    env: { SHUTDOWN_TIMEOUT_MS: String(EXIT_DEADLINE_MS - 5_000), ...process.env, ...env, LOG_LEVEL: env.LOG_LEVEL === 'debug' ? 'debug' : 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  let started = false;
  // Whole lines only: a pipe's chunk can end mid-line (and mid-character) when the service logs a lot.
  const onLine = (line: string) => {
    if (line === '') return;
    logs.push(line);
    if (line.includes(`"event":"${startedEvent}"`)) started = true;
  };
  createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', onLine);
  createInterface({ input: child.stderr, crlfDelay: Infinity }).on('line', onLine);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await waitFor(() => started || (child.exitCode !== null ? Promise.reject(new Error(`exited ${child.exitCode}`)) : false), {
      timeoutMs: 60000,
      what: `${service} to start`,
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${service} did not start: ${String(error)}\n${logs.slice(-30).join('\n')}`);
  }
  return {
    child,
    logs,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      // A service that does not stop is a failure to report (with its last words), not a test that hangs until its timeout.
      let timer: NodeJS.Timeout | undefined;
      const stuck = new Promise<'stuck'>((resolve) => (timer = setTimeout(() => resolve('stuck'), EXIT_DEADLINE_MS)));
      const outcome = await Promise.race([exited, stuck]);
      clearTimeout(timer);
      if (outcome !== 'stuck') {
        const timedOut = logs.find((line) => line.includes('"shutdown_timed_out"'));
        if (timedOut !== undefined) console.warn(`${service}: its drain hit SHUTDOWN_TIMEOUT_MS: ${timedOut}`);
        return outcome;
      }
      child.kill('SIGKILL');
      await exited;
      throw new Error(`${service} did not exit within ${EXIT_DEADLINE_MS / 1000} s of ${signal}; its last log lines:\n${logs.slice(-30).join('\n')}`);
    },
  };
}
