import type { Logger } from 'pino';

/** Says at start, as a warning, that outbound targets other than global unicast addresses are allowed (development settings). */
export function warnOutboundPolicy(env: { NOTIFY_ALLOW_TARGETS: string; NOTIFY_ALLOW_PRIVATE: boolean }, logger: Logger): void {
  if (env.NOTIFY_ALLOW_TARGETS.trim() !== '')
    logger.warn(
      { event: 'outbound_targets_allowed', setting: 'NOTIFY_ALLOW_TARGETS', targets: env.NOTIFY_ALLOW_TARGETS },
      'notification targets on these exact loopback or private addresses are allowed: a test and development setting, never for production',
    );
  if (env.NOTIFY_ALLOW_PRIVATE)
    logger.warn(
      { event: 'outbound_private_allowed', setting: 'NOTIFY_ALLOW_PRIVATE' },
      'notification targets on private addresses are allowed: only where every such receiver is yours',
    );
}
