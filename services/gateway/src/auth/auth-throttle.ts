import { PulseboardError } from '@pulseboard/contracts';
import type { FixedWindowCounter } from '../limits/fixed-window.ts';

/**
 * Failed authentications, counted per client address and per credential
 * prefix (its first 12 characters: `evk_` and 8 more) in one-minute windows in
 * Redis, shared by every gateway instance. Once either passes the limit, every
 * credential that is not already known good in memory is refused with 429 and
 * Retry-After until the window ends, before any lookup (docs/read-api.md).
 */
export class AuthThrottle {
  constructor(
    private readonly counter: FixedWindowCounter,
    private readonly limit: number,
  ) {}

  private static subjects(client: string, secret: string): string[] {
    return [`ip:${client}`, `px:${secret.slice(0, 12)}`];
  }

  /** Throws 429 when this address or prefix has failed too often in this window. */
  async check(client: string, secret: string): Promise<void> {
    const counts = await this.counter.read(AuthThrottle.subjects(client, secret));
    const over = counts.find((c) => c.count >= this.limit);
    if (over !== undefined) throw throttled(over.retryAfter, this.limit);
  }

  /** Records a failure; the error to answer it with (401, or 429 once over the limit). */
  async fail(client: string, secret: string, error: PulseboardError): Promise<PulseboardError> {
    const counts = await Promise.all(AuthThrottle.subjects(client, secret).map((s) => this.counter.hit(s)));
    const over = counts.find((c) => c.count > this.limit);
    return over === undefined ? error : throttled(over.retryAfter, this.limit);
  }
}

function throttled(retryAfter: number, limit: number): PulseboardError {
  return new PulseboardError('rate_limit_exceeded', {
    message: `Too many failed authentications (more than ${limit} a minute from this address or for this key prefix); retry after ${retryAfter} s`,
    headers: { 'retry-after': retryAfter },
  });
}
