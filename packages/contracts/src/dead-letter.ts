/** Where a dead letter came from and why: what Pulseboard's dead-letter headers carry (TOPICS.eventsDeadLetter). */
export interface DeadLetterInfo {
  code: string;
  message: string;
  topic: string;
  partition: number;
  offset: string;
  groupId: string;
}

/** The names of the dead-letter headers (TOPICS.eventsDeadLetter documents them). */
export const DEAD_LETTER_HEADERS = {
  reason: 'pb-dlq-reason',
  message: 'pb-dlq-message',
  topic: 'pb-dlq-topic',
  partition: 'pb-dlq-partition',
  offset: 'pb-dlq-offset',
  group: 'pb-dlq-consumer-group',
  at: 'pb-dlq-at',
} as const;

/** The `pb-dlq-*` headers, added to the original message's own. */
export function deadLetterHeaders(info: DeadLetterInfo, at: Date = new Date()): Record<string, string> {
  const h = DEAD_LETTER_HEADERS;
  return {
    [h.reason]: info.code,
    [h.message]: info.message.slice(0, 1000),
    [h.topic]: info.topic,
    [h.partition]: String(info.partition),
    [h.offset]: info.offset,
    [h.group]: info.groupId,
    [h.at]: at.toISOString(),
  };
}
