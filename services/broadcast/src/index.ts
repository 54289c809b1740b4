export { loadBroadcastEnv, type BroadcastEnv } from './env.ts';
export { startBroadcast, type BroadcastService } from './service.ts';
export { Hub } from './hub.ts';
