/** Where a dead letter came from and why: what Pulseboard's dead-letter headers carry (TOPICS.eventsDeadLetter). */
export interface DeadLetterInfo {
  code: string;
  message: string;
  topic: string;
  partition: number;
  offset: string;
  groupId: string;
}

/** The `pb-dlq-*` headers, added to the original message's own. */
export function deadLetterHeaders(info: DeadLetterInfo, at: Date = new Date()): Record<string, string> {
  return {
    'pb-dlq-reason': info.code,
    'pb-dlq-message': info.message.slice(0, 1000),
    'pb-dlq-topic': info.topic,
    'pb-dlq-partition': String(info.partition),
    'pb-dlq-offset': info.offset,
    'pb-dlq-consumer-group': info.groupId,
    'pb-dlq-at': at.toISOString(),
  };
}
