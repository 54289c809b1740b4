import { PulseboardError } from '@pulseboard/contracts';
import type { FixedWindowCounter } from '../limits/fixed-window.ts';

/** A lookup the throttle let through: counted as a failure until `succeeded` gives it back. */
export interface Attempt {
  keys: string[];
}

/**
 * Failed authentications, counted per client address and per credential
 * prefix (its first 12 characters: `evk_` and 8 more) in one-minute windows in
 * Redis, shared by every gateway instance. What it bounds is the Postgres
 * lookups failing credentials cause: each uncached credential takes a slot
 * before it is looked up (one script call, so a burst of concurrent failures
 * cannot pass together), and a credential that proves valid gives it back.
 * Past the limit a credential is looked up only when the valid-credential set
 * knows it (credential-set.ts, no Postgres), so a valid credential is accepted
 * from any address whatever others sent, and everything else is 429 with
 * Retry-After until the window ends (SECURITY.md, Failed authentications).
 */
export class AuthThrottle {
  constructor(
    private readonly counter: FixedWindowCounter,
    private readonly limit: number,
  ) {}

  private static subjects(client: string, secret: string): string[] {
    return [`ip:${client}`, `px:${secret.slice(0, 12)}`];
  }

  /** A slot for one lookup, or the 429 to answer unless the credential is known valid. */
  async begin(client: string, secret: string): Promise<Attempt | PulseboardError> {
    const taken = await this.counter.take(AuthThrottle.subjects(client, secret), this.limit);
    return taken.taken ? { keys: taken.keys } : throttled(taken.retryAfter, this.limit, 'from this address or for this key prefix');
  }

  /** The credential was valid: its slot is given back (it was no failure). */
  succeeded(attempt: Attempt): void {
    this.counter.give(attempt.keys).catch(() => undefined);
  }

  /**
   * A failed admin token from this address: the error to answer it with
   * (`refused` up to the limit, then 429). The right admin token is compared
   * before this and always works: there is no lookup to protect, only guesses to slow.
   */
  async adminFailure(client: string, refused: PulseboardError): Promise<PulseboardError> {
    const count = await this.counter.hit(`adm:${client}`);
    return count.count > this.limit ? throttled(count.retryAfter, this.limit, 'of the admin token from this address') : refused;
  }
}

function throttled(retryAfter: number, limit: number, per: string): PulseboardError {
  return new PulseboardError('rate_limit_exceeded', {
    message: `Too many failed authentications (more than ${limit} a minute ${per}); retry after ${retryAfter} s`,
    headers: { 'retry-after': retryAfter },
  });
}
