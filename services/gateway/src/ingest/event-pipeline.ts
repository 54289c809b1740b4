import type { EventEnvelope, IngestedEvent } from '@pulseboard/contracts';
import { EVENT_SCHEMA_HEADER } from '@pulseboard/contracts';
import type { BatchingProducer } from '@pulseboard/kafka-kit';
import type { ProjectAuth } from '../auth/project-directory.ts';
import type { EventIdAllocator } from './event-id-allocator.ts';

/** Only the envelope's own fields travel on; unknown top-level fields are dropped. */
export function toIngestedEvent(id: number, project: ProjectAuth, e: EventEnvelope, receivedAt: string): IngestedEvent {
  const event: IngestedEvent = {
    id,
    project_key: project.projectKey,
    account_id: project.accountId,
    type: e.type,
    name: e.name,
    timestamp: e.timestamp,
    received_at: receivedAt,
    attributes: e.attributes,
  };
  if (e.severity !== undefined) event.severity = e.severity;
  if (e.channel !== undefined) event.channel = e.channel;
  if (e.correlation_id !== undefined) event.correlation_id = e.correlation_id;
  if (e.source !== undefined) event.source = e.source;
  if (e.labels !== undefined) event.labels = e.labels;
  return event;
}

/**
 * Gives accepted events their ids and hands them to Kafka, keyed by project.
 * Resolves with the ids once Kafka acknowledged every one of them (acks=all).
 */
export class EventPipeline {
  constructor(
    private readonly producer: BatchingProducer,
    private readonly ids: EventIdAllocator,
    private readonly topic: string,
  ) {}

  async publish(project: ProjectAuth, envelopes: readonly EventEnvelope[], receivedAt: Date): Promise<number[]> {
    const at = receivedAt.toISOString();
    const ids: number[] = [];
    for (let i = 0; i < envelopes.length; i++) ids.push(await this.ids.allocate());
    await Promise.all(
      envelopes.map((envelope, i) => {
        const id = ids[i]!;
        return this.producer.send(this.topic, {
          key: project.projectKey,
          value: JSON.stringify(toIngestedEvent(id, project, envelope, at)),
          headers: { 'content-type': 'application/json', 'pb-schema': EVENT_SCHEMA_HEADER, 'pb-event-id': String(id) },
        });
      }),
    );
    return ids;
  }
}
