/**
 * The control plane's read side: every query a service other than the gateway
 * (which owns and migrates the control-plane tables) makes on accounts, users,
 * projects, tiles and notification services. No SQL on those tables anywhere
 * else (packages/test-kit's table-ownership test).
 */
export * from './project-rules.ts';
export * from './credentials.ts';
export * from './retention.ts';
export * from './dashboard-tiles.ts';
export * from './notification-targets.ts';
export * from './revision-cache.ts';
