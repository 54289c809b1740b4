import { COULD_NOT_CONNECT } from '@pulseboard/contracts';
import { DeliveryTimeout, TargetRefused } from './safe-http.ts';

export { COULD_NOT_CONNECT };

/**
 * What a failed delivery records in `last_error`, which its tenant reads: a
 * generic reason, never an address or a port (a tenant must not learn which
 * internal hosts and ports answer). A refused connection, one closed before
 * an answer, an unreachable host and a failed TLS handshake read the same
 * (`COULD_NOT_CONNECT`): told apart, they would tell a closed port from one
 * where Redis, Postgres or Kafka listens. The error's own message goes to the
 * operator's log only.
 */
export function publicReason(error: unknown): string {
  if (error instanceof TargetRefused || error instanceof DeliveryTimeout) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NODATA':
    case 'EAI_NONAME':
      return 'the target host name did not resolve';
    case 'ETIMEDOUT':
    case 'ESOCKETTIMEDOUT':
      return 'the connection timed out';
    default:
      // A certificate the target presented and we did not accept: a TLS server answered, the tenant's to fix.
      if (typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return 'the TLS handshake failed (certificate not accepted)';
      return COULD_NOT_CONNECT;
  }
}

/** The operator's view of the same error: its message, bounded. */
export function operatorDetail(error: unknown): string {
  const message = error instanceof TargetRefused ? `${error.message}: ${error.detail}` : error instanceof Error ? error.message : String(error);
  return message.slice(0, 500);
}
