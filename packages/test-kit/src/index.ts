export * from './env.ts';
export * from './wait-for.ts';
export * from './kafka.ts';
export * from './http.ts';
export * from './processes.ts';
export * from './second-broker.ts';
export * from './redis-cluster.ts';
