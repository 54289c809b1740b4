import { PROXY_CLIENT_HEADER, PROXY_SECRET_HEADER } from '@pulseboard/config';
import type { Principal } from './repository.ts';

/** What a WebSocket credential comes to: a principal, undefined (not valid), or a throttled client's wait. */
export type AuthOutcome = Principal | undefined | { retryAfter: number };

/** Authenticates a credential presented from a client address (the upgrade's header or an `auth` message). */
export type Authenticate = (token: string, client: string) => Promise<AuthOutcome>;

export function isThrottled(outcome: AuthOutcome): outcome is { retryAfter: number } {
  return outcome !== undefined && 'retryAfter' in outcome;
}

const WINDOW_MS = 60_000;
const MAX_SUBJECTS = 100_000;

/**
 * Failed WebSocket authentications per client address and per credential
 * prefix (first 12 characters), in one-minute windows held by this instance:
 * the gateway's rule (services/gateway/src/auth/auth-throttle.ts) for the
 * `auth` messages and upgrade headers broadcast looks up itself. A credential
 * takes a slot before its Postgres lookup and gives it back when valid; past
 * the limit only a credential the gateway's valid-credential set knows is
 * looked up (asked through the internal pass-through credential, no
 * Postgres), so a valid one still gets in whatever others sent.
 */
export class WsAuthThrottle {
  private window = -1;
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly now: () => number = Date.now,
  ) {}

  private subjects(client: string, token: string): string[] {
    const window = Math.floor(this.now() / WINDOW_MS);
    if (window !== this.window) {
      this.window = window;
      this.counts.clear();
    }
    return [`ip:${client}`, `px:${token.slice(0, 12)}`];
  }

  /** Takes a slot for one lookup; the seconds to wait instead when the address or prefix is at the limit. */
  begin(client: string, token: string): true | { retryAfter: number } {
    const subjects = this.subjects(client, token);
    // Bounded memory: once this window counts MAX_SUBJECTS addresses and prefixes (a flood), a new
    // one is treated as at the limit (a valid credential still gets in through the gateway's set).
    const full = this.counts.size >= MAX_SUBJECTS - 1;
    if (subjects.some((s) => (this.counts.get(s) ?? (full ? this.limit : 0)) >= this.limit)) {
      return { retryAfter: Math.max(1, Math.ceil(((this.window + 1) * WINDOW_MS - this.now()) / 1000)) };
    }
    for (const s of subjects) this.counts.set(s, (this.counts.get(s) ?? 0) + 1);
    return true;
  }

  /** The credential was valid: its slot is given back. */
  succeeded(client: string, token: string): void {
    for (const s of this.subjects(client, token)) {
      const count = this.counts.get(s);
      if (count !== undefined) this.counts.set(s, count - 1);
    }
  }
}

/**
 * Asks the gateway whether a credential may be valid, from its
 * valid-credential set (GET /internal/v1/credential-check, with
 * INTERNAL_PROXY_SECRET). No secret, no gateway, or no answer: not known valid.
 */
export function gatewayCredentialCheck(apiUrl: string, secret: string, timeoutMs = 2000): (token: string, client: string) => Promise<boolean> {
  const url = `${apiUrl.replace(/\/+$/, '')}/internal/v1/credential-check`;
  return async (token, client) => {
    if (secret === '') return false;
    try {
      const res = await fetch(url, {
        headers: { authorization: `Bearer ${token}`, [PROXY_SECRET_HEADER]: secret, [PROXY_CLIENT_HEADER]: client },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) return false;
      return ((await res.json()) as { valid?: unknown }).valid === true;
    } catch {
      return false;
    }
  };
}

/** The lookup behind the throttle: slot first, the gateway's set past the limit, Postgres only for what may be valid. */
export function throttledAuthentication(deps: {
  throttle: WsAuthThrottle;
  lookup: (token: string) => Promise<Principal | undefined>;
  knownValid: (token: string, client: string) => Promise<boolean>;
  onLookup?: () => void;
}): Authenticate {
  return async (token, client) => {
    const slot = deps.throttle.begin(client, token);
    if (slot !== true && !(await deps.knownValid(token, client))) return slot;
    deps.onLookup?.();
    const principal = await deps.lookup(token);
    if (principal !== undefined && slot === true) deps.throttle.succeeded(client, token);
    return principal;
  };
}
