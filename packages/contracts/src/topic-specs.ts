import { TOPICS } from './topics.ts';
import type { TopicCreationSpec, TopicSizing } from './topics/topic-definition.ts';

/** The events topic's creation spec (`TOPICS.events.spec`), named for the callers that size it. */
export function eventsTopicSpec(topic: string, sizing: TopicSizing): TopicCreationSpec {
  return TOPICS.events.spec(topic, sizing);
}

export function eventsDeadLetterTopicSpec(topic: string, sizing: TopicSizing): TopicCreationSpec {
  return TOPICS.eventsDeadLetter.spec(topic, sizing);
}
