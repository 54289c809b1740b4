export { startStoreService } from './service.ts';
export { loadStoreEnv, type StoreEnv } from './env.ts';
