/**
 * The machine's calibration, printed beside a bench's figures so that runs on
 * two machines or two days can be put side by side: a bare fastify POST route
 * (bench:ingest's baseline server), CPU µs of the server per request at
 * 1,000/s; and raw kafkajs, one message per send (acks=all) at 1,000/s
 * consumed in the same process, CPU µs of that process per message (and of
 * the broker, when its pid is known). Either can run at another rate: at 100/s
 * they show what the machine charges per request when requests come one at a
 * time (bench:pipeline prints both, the baseline of its marginal-cost figure).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@pulseboard/test-kit';
import { JsonPoster } from './http-client.ts';
import { treeCpuSeconds } from './process-cpu.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface Calibration {
  fastifyUs: number;
  kafkaClientUs: number;
  /** NaN when the broker's pid is not known. */
  kafkaBrokerUs: number;
}

export async function calibrateFastify(rate = 1000, seconds = 5): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/ingest/bare-server.ts'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let address = '';
  child.stdout.on('data', (c: Buffer) => {
    const m = /"address":"([^"]+)"/.exec(c.toString());
    if (m) address = m[1]!;
  });
  await waitFor(() => address !== '', { timeoutMs: 30_000, what: 'bare server' });
  const poster = new JsonPoster(64);
  const body = { project_key: 'p', type: 'metric', name: 'm0', timestamp: new Date().toISOString(), attributes: { value: 42 } };
  const drive = async (rate: number, seconds: number) => {
    const total = rate * seconds;
    const started = Date.now();
    const inFlight = new Set<Promise<unknown>>();
    for (let sent = 0; sent < total;) {
      const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * rate));
      for (; sent < due; sent++) {
        const p = poster.post(`${address}/ingest`, {}, body).finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    await Promise.all(inFlight);
    return total;
  };
  await drive(rate, 2);
  const before = treeCpuSeconds(child.pid!);
  const n = await drive(rate, seconds);
  const used = treeCpuSeconds(child.pid!) - before;
  poster.close();
  child.kill('SIGTERM');
  return (used / n) * 1e6;
}

export async function calibrateKafka(
  brokers: string,
  brokerPid?: () => number | undefined,
  rate = 1000,
  seconds = 5,
): Promise<{ client: number; broker: number }> {
  const child = spawn(process.execPath, ['-C', '@pulseboard/source', '--import', 'tsx', 'bench/shared/calibrate-kafka.ts'], {
    cwd: root,
    env: { ...process.env, BROKERS: brokers, RATE: String(rate), SECONDS: String(seconds) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const brokerCpu = () => {
    const pid = brokerPid?.();
    return pid === undefined ? NaN : treeCpuSeconds(pid);
  };
  let brokerStart = NaN;
  let result: { messages: number; cpu_us: number; broker: number } | undefined;
  child.stdout.on('data', (c: Buffer) => {
    for (const line of c.toString().split('\n')) {
      if (line.includes('calibration_started')) brokerStart = brokerCpu();
      if (line.includes('calibration_done')) result = { ...(JSON.parse(line) as { messages: number; cpu_us: number }), broker: brokerCpu() - brokerStart };
    }
  });
  await waitFor(() => result, { timeoutMs: 120_000, what: 'kafka calibration' });
  return { client: result!.cpu_us / result!.messages, broker: (result!.broker / result!.messages) * 1e6 };
}

export async function calibrate(brokers: string, brokerPid?: () => number | undefined): Promise<Calibration> {
  const fastifyUs = await calibrateFastify();
  const k = await calibrateKafka(brokers, brokerPid);
  return { fastifyUs, kafkaClientUs: k.client, kafkaBrokerUs: k.broker };
}

export function calibrationLine(c: Calibration): string {
  const broker = Number.isNaN(c.kafkaBrokerUs) ? '' : ` and ${Math.round(c.kafkaBrokerUs)} µs of the broker`;
  return `calibration (this machine, this run): bare fastify POST ${Math.round(c.fastifyUs)} µs/request; raw kafkajs produce+consume ${Math.round(c.kafkaClientUs)} µs of the client${broker} per message`;
}
