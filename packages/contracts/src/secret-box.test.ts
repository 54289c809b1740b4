import { describe, expect, it } from 'vitest';
import { maskSecret, seal, unseal } from './secret-box.ts';

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
    expect(maskSecret('https://hooks.slack.com/services/T0/B0/xyz')).toBe('https:••••yz');
  });
});
