export * from './mapping.ts';
export * from './alertmanager.ts';
export * from './pagerduty.ts';
export * from './cloudevents.ts';
export * from './github.ts';
export * from './schemas.ts';
