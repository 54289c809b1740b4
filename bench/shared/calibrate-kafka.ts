/**
 * The benches' Kafka calibration (shared/calibration.ts), in a process of its own: raw kafkajs,
 * one message per send (acks=all) at a steady rate, consumed by a plain
 * consumer in the same process. Prints its own CPU per message.
 */
import { testKafka } from '@pulseboard/test-kit';

const brokers = process.env.BROKERS!.split(',');
const RATE = Number(process.env.RATE ?? 1000);
const SECONDS = Number(process.env.SECONDS ?? 5);
const topic = `calibration-${Date.now()}`;
const kafka = testKafka(brokers.join(','));
const admin = kafka.admin();
await admin.connect();
await admin.createTopics({ topics: [{ topic, numPartitions: 6 }], waitForLeaders: true });
const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
await producer.connect();
const consumer = kafka.consumer({ groupId: topic });
await consumer.connect();
await consumer.subscribe({ topic, fromBeginning: true });
const total = RATE * SECONDS;
let consumed = 0;
let allConsumed: () => void = () => undefined;
const done = new Promise<void>((resolve) => (allConsumed = resolve));
await consumer.run({
  eachBatch: async ({ batch }) => {
    consumed += batch.messages.length;
    if (consumed >= total) allConsumed();
  },
});
// A first message through, so the consumer has joined and fetches.
await producer.send({ topic, acks: -1, messages: [{ key: 'warm', value: 'x' }] });
while (consumed < 1) await new Promise((r) => setTimeout(r, 20));
consumed = 0;
console.log(JSON.stringify({ event: 'calibration_started' }));
const cpu = process.cpuUsage();
const started = Date.now();
const inFlight = new Set<Promise<unknown>>();
let sent = 0;
while (sent < total) {
  const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * RATE));
  for (; sent < due; sent++) {
    const p = producer
      .send({ topic, acks: -1, messages: [{ key: `k${sent % 100}`, value: JSON.stringify({ n: sent, at: Date.now(), pad: 'x'.repeat(200) }) }] })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  }
  await new Promise((r) => setTimeout(r, 2));
}
await Promise.all(inFlight);
await done;
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ event: 'calibration_done', messages: total, cpu_us: used.user + used.system }));
await consumer.disconnect();
await producer.disconnect();
await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
await admin.disconnect();
