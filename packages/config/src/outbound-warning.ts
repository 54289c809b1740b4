import type { Logger } from 'pino';

/** Says at start, as a warning, that outbound targets other than global unicast addresses are allowed (development settings). */
export function warnOutboundPolicy(env: { NOTIFY_ALLOW_LOOPBACK: boolean; NOTIFY_ALLOW_PRIVATE: boolean }, logger: Logger): void {
  if (env.NOTIFY_ALLOW_LOOPBACK) logger.warn({ event: 'outbound_loopback_allowed', setting: 'NOTIFY_ALLOW_LOOPBACK' }, 'notification targets on loopback addresses are allowed: a development setting, never for production');
  if (env.NOTIFY_ALLOW_PRIVATE) logger.warn({ event: 'outbound_private_allowed', setting: 'NOTIFY_ALLOW_PRIVATE' }, 'notification targets on private addresses are allowed: only where every such receiver is yours');
}
