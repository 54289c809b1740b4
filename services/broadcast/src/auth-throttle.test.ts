import { describe, expect, it } from 'vitest';
import { throttledAuthentication, WsAuthThrottle } from './auth-throttle.ts';
import type { Principal } from './repository.ts';

const principal = { kind: 'user', projects: [], credentialHash: Buffer.alloc(32) } as unknown as Principal;

describe('WebSocket failed-authentication throttle', () => {
  it('takes a slot per lookup, gives it back for a valid credential, and past the limit looks up only what the gateway knows valid', async () => {
    let t = 30_000;
    const throttle = new WsAuthThrottle(3, () => t);
    const looked: string[] = [];
    const authenticate = throttledAuthentication({
      throttle,
      lookup: async (token) => (looked.push(token), token.startsWith('evu_good') ? principal : undefined),
      knownValid: async (token) => token.startsWith('evu_good'),
    });
    // Valid credentials cost no slot.
    for (let i = 0; i < 5; i++) expect(await authenticate(`evu_good-${i}`, '10.0.0.1')).toBe(principal);
    for (let i = 0; i < 3; i++) expect(await authenticate(`evu_bad-${i}-xxxxxxxx`, '10.0.0.1')).toBeUndefined();
    looked.length = 0;
    // Over the limit: garbage is refused without a lookup, a valid credential still gets in.
    expect(await authenticate('evu_bad-9-xxxxxxxx', '10.0.0.1')).toEqual({ retryAfter: 30 });
    expect(await authenticate('evu_good-new', '10.0.0.1')).toBe(principal);
    expect(looked).toEqual(['evu_good-new']);
    // Another address is not held; the next minute starts clean.
    expect(await authenticate('evu_bad-10-xxxxxxx', '10.0.0.2')).toBeUndefined();
    t += 60_000;
    expect(await authenticate('evu_bad-11-xxxxxxx', '10.0.0.1')).toBeUndefined();
  });

  it('counts per key prefix across addresses', () => {
    const throttle = new WsAuthThrottle(2, () => 0);
    expect(throttle.begin('10.0.0.1', 'evk_samepfx-a')).toBe(true);
    expect(throttle.begin('10.0.0.2', 'evk_samepfx-b')).toBe(true);
    expect(throttle.begin('10.0.0.3', 'evk_samepfx-c')).toEqual({ retryAfter: 60 });
    expect(throttle.begin('10.0.0.3', 'evk_otherpfx')).toBe(true);
  });
});
