import { DeliveryTimeout, TargetRefused } from './safe-http.ts';

/**
 * What a failed delivery records in `last_error`, which its tenant reads: a
 * generic reason, never an address or a port (a tenant must not learn which
 * internal hosts and ports answer). The error's own message goes to the
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
    case 'ECONNREFUSED':
      return 'the connection was refused';
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ECONNABORTED':
    case 'ERR_STREAM_PREMATURE_CLOSE':
      return 'the connection was closed before an answer';
    case 'ETIMEDOUT':
    case 'ESOCKETTIMEDOUT':
      return 'the connection timed out';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
      return 'the target is unreachable';
    case 'EPROTO':
      return 'the TLS handshake failed';
    default:
      if (typeof code === 'string' && (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))) return 'the TLS handshake failed (certificate not accepted)';
      return 'the delivery failed (network error)';
  }
}

/** The operator's view of the same error: its message, bounded. */
export function operatorDetail(error: unknown): string {
  const message = error instanceof TargetRefused ? `${error.message}: ${error.detail}` : error instanceof Error ? error.message : String(error);
  return message.slice(0, 500);
}
