import { describe, expect, it } from 'vitest';
import { loadEnv } from './env.ts';
import { PROXY_CLIENT_HEADER, PROXY_SECRET_HEADER, passThroughClient, proxyEnvProperties, proxySecretHash, trustProxyOption } from './proxy.ts';

describe('TRUST_PROXY and the pass-through credential', () => {
  it('reads TRUST_PROXY as nothing, a hop count, or addresses and ranges; refuses anything else', () => {
    expect(trustProxyOption('')).toBe(false);
    expect(trustProxyOption('  ')).toBe(false);
    expect(trustProxyOption('10.42.0.0/16, 192.168.1.7,fd00::/8')).toEqual(['10.42.0.0/16', '192.168.1.7', 'fd00::/8']);
    const hops = trustProxyOption('1') as (address: string, hop: number) => boolean;
    expect([hops('10.0.0.1', 0), hops('10.0.0.2', 1)]).toEqual([true, false]);
    for (const wrong of ['true', '*', '10.0.0.0/33', 'ingress.local', '10.0.0.1/8/1', '::1/129'])
      expect(() => trustProxyOption(wrong), wrong).toThrow(/TRUST_PROXY/);
  });

  it('believes the named client only with the right secret; refuses a weak secret at load', () => {
    const secret = 'Zq8vN3kLp0Wm7Xc2Rt5Yb9Hd4Gf6Js1A';
    const hash = proxySecretHash(secret);
    expect(passThroughClient(hash, { [PROXY_SECRET_HEADER]: secret, [PROXY_CLIENT_HEADER]: '203.0.113.9' })).toBe('203.0.113.9');
    expect(passThroughClient(hash, { [PROXY_SECRET_HEADER]: `${secret}x`, [PROXY_CLIENT_HEADER]: '203.0.113.9' })).toBeUndefined();
    expect(passThroughClient(hash, { [PROXY_SECRET_HEADER]: secret, [PROXY_CLIENT_HEADER]: 'not-an-address' })).toBeUndefined();
    expect(passThroughClient(undefined, { [PROXY_SECRET_HEADER]: '', [PROXY_CLIENT_HEADER]: '203.0.113.9' })).toBeUndefined();
    expect(proxySecretHash('')).toBeUndefined();
    expect(() => loadEnv(proxyEnvProperties, { INTERNAL_PROXY_SECRET: 'change-me-to-a-long-random-secret' })).toThrow(/INTERNAL_PROXY_SECRET/);
    expect(() => loadEnv(proxyEnvProperties, { INTERNAL_PROXY_SECRET: 'short' })).toThrow(/INTERNAL_PROXY_SECRET/);
    expect(loadEnv<{ INTERNAL_PROXY_SECRET: string }>(proxyEnvProperties, {}).INTERNAL_PROXY_SECRET).toBe('');
    expect(() => loadEnv(proxyEnvProperties, { TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });
});
