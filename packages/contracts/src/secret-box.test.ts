import { describe, expect, it } from 'vitest';
import { maskSecret, seal, unseal, unsealWith } from './secret-box.ts';

describe('secret box', () => {
  it('round-trips, never repeats a ciphertext, and refuses another key or a tampered text', () => {
    const a = seal('whsec_abc', 'key-1');
    expect(a).not.toContain('whsec_abc');
    expect(seal('whsec_abc', 'key-1')).not.toBe(a);
    expect(unseal(a, 'key-1')).toBe('whsec_abc');
    expect(() => unseal(a, 'key-2')).toThrow();
    const parts = a.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => unseal(parts.join('.'), 'key-1')).toThrow();
  });

  it('masks URLs down to scheme, host and port: path, query and user info carry credentials', () => {
    expect(maskSecret('https://hooks.slack.com/services/T0/B0/xyz')).toBe('https://hooks.slack.com/••••');
    expect(maskSecret('https://user:pass@example.com:8443/hook?token=abc')).toBe('https://example.com:8443/••••');
    expect(maskSecret('whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=')).toBe('whsec_••••Q=');
    expect(maskSecret('short')).toBe('••••');
  });

  it('opens with the current key or the previous one during a rotation, and says which', () => {
    const old = seal('https://example.com/hook?token=1', 'old-key');
    expect(unsealWith(old, { current: 'new-key', previous: 'old-key' })).toEqual({ plain: 'https://example.com/hook?token=1', current: false });
    expect(unsealWith(seal('x', 'new-key'), { current: 'new-key', previous: 'old-key' })).toEqual({ plain: 'x', current: true });
    expect(() => unsealWith(old, { current: 'new-key' })).toThrow();
    expect(() => unsealWith(old, { current: 'new-key', previous: 'other' })).toThrow('sealed under neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS');
  });
});
