export { loadNotificationEnv, type NotificationEnv } from './env.ts';
export { startNotificationService, MIGRATIONS_DIR, type NotificationService } from './service.ts';
export { refused } from './safe-http.ts';
