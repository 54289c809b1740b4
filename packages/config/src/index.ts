export * from './env.ts';
export * from './logger.ts';
export * from './lifecycle.ts';
export * from './secrets.ts';
export * from './outbound-warning.ts';
export * from './metrics.ts';
export * from './ops-http.ts';
