export * from './event-envelope.schema.ts';
export * from './ingested-event.schema.ts';
export * from './validation.ts';
export * from './error-catalog.ts';
export * from './topics.ts';
export * from './webhook-request.schema.ts';
