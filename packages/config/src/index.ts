export * from './env.ts';
export * from './logger.ts';
export * from './lifecycle.ts';
