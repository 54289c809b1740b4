import type { IngestedEvent, WebhookEvent } from '@pulseboard/contracts';
import { TOPICS } from '@pulseboard/contracts';
import type { BatchingProducer } from '@pulseboard/kafka-kit';
import type { ProjectAuth } from '../auth/project-directory.ts';
import type { EventIdAllocator } from './event-id-allocator.ts';

/**
 * Only the envelope's own fields travel on; unknown top-level fields are dropped.
 * The project is the authenticated one (a webhook event may omit project_key).
 */
function toIngestedEvent(id: number, project: ProjectAuth, e: WebhookEvent, receivedAt: string): IngestedEvent {
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
 * Ids come first (callers may need them before the events leave, e.g. to watch
 * for the rule engine's outcome); `publish` resolves once Kafka acknowledged
 * every event (acks=all). Each event is serialised exactly once.
 */
export class EventPipeline {
  constructor(
    private readonly producer: BatchingProducer,
    private readonly ids: EventIdAllocator,
    private readonly topic: string,
  ) {}

  allocateIds(count: number): Promise<number[]> {
    return this.ids.allocateMany(count);
  }

  /** `outcomeWanted`: the request waits for the rule engine's outcome of these events (webhooks). */
  async publish(
    project: ProjectAuth,
    events: readonly WebhookEvent[],
    ids: readonly number[],
    receivedAt: Date,
    outcomeWanted = false,
    traceparent?: string,
  ): Promise<void> {
    const at = receivedAt.toISOString();
    // The topic's encoder gives UTF-8 Buffers: the producer sizes them and kafkajs writes them as they are.
    await this.producer.sendMany(
      this.topic,
      // projectRevision: the revision this gateway checked against Redis for this request; the rule engine
      // evaluates these events with the project's rules at least that new (rules read-your-writes, by order).
      events.map((event, i) =>
        TOPICS.events.encode({ event: toIngestedEvent(ids[i]!, project, event, at), outcomeWanted, projectRevision: project.revision, traceparent }),
      ),
    );
  }
}
