export * from './env.ts';
export * from './logger.ts';
