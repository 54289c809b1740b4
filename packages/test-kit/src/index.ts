export * from './env.ts';
export * from './wait-for.ts';
export * from './kafka.ts';
export * from './http.ts';
export * from './processes.ts';
export * from './second-broker.ts';
export * from './redis-cluster.ts';
export { usesContainers } from './containers.ts';
export { createScratchDatabase } from './run-database.ts';
