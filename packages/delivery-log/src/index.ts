/**
 * The notification service's read side: every query another service makes on
 * notification_deliveries, which the notification service owns and migrates
 * (the gateway's GET /notification-services/:id/deliveries). No SQL on that
 * table anywhere else (packages/test-kit's table-ownership test).
 */
export * from './deliveries.ts';
