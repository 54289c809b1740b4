import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { seal } from '@pulseboard/contracts';
import { OpenedSecretsCache, WebhookSigner } from './opened-secrets.ts';

const KEY = 'current-secrets-key-0123456789abcdef';
const OLD_KEY = 'previous-secrets-key-0123456789abcdef';
const secretA = `whsec_${Buffer.from('first signing secret, 32 bytes!!').toString('base64')}`;
const secretB = `whsec_${Buffer.from('second signing secret, 32 bytes!').toString('base64')}`;
const sealed = (secret: string, key = KEY) => seal(JSON.stringify({ secret, url: 'https://example.com/hook' }), key);

/** Signs as the sender does, and says which secret the signature verifies under. */
function signedWith(signature: string, at: Date): string[] {
  const headers = { 'webhook-id': 'dlv_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
  return [secretA, secretB].filter((s) => {
    try {
      new Webhook(s).verify('{}', headers);
      return true;
    } catch {
      return false;
    }
  });
}

describe('WebhookSigner', () => {
  it('signs exactly as the Standard Webhooks library does, and refuses the secrets it refuses', () => {
    const at = new Date('2026-11-26T12:34:56.789Z');
    const unprefixed = Buffer.from([0, 255, 1, 254, 2, 253, 3, 252, 4]).toString('base64');
    for (const secret of [secretA, secretB, unprefixed]) {
      for (const payload of ['{}', '{"type":"tile.status_changed","data":{"name":"ünïcødé ✓ 🚀"}}', 'x'.repeat(70_000)]) {
        expect(new WebhookSigner(secret).sign('dlv_42', at, payload)).toBe(new Webhook(secret).sign('dlv_42', at, payload));
      }
    }
    for (const secret of ['', 'whsec_', 'not base64 at all!']) {
      expect(() => new Webhook(secret)).toThrow();
      expect(() => new WebhookSigner(secret)).toThrow();
    }
  });
});

describe('OpenedSecretsCache', () => {
  it('opens a service once while its sealed secrets stay the same', () => {
    const cache = new OpenedSecretsCache({ current: KEY });
    const row = sealed(secretA);
    const first = cache.open(7, row);
    expect(cache.open(7, row)).toBe(first);
    expect(first.signer()).toBe(first.signer());
    expect(first.values.url).toBe('https://example.com/hook');
  });

  it('signs with the new secret once the service has a changed one', () => {
    const cache = new OpenedSecretsCache({ current: KEY });
    const at = new Date();
    expect(signedWith(cache.open(7, sealed(secretA)).signer().sign('dlv_1', at, '{}'), at)).toEqual([secretA]);
    expect(signedWith(cache.open(7, sealed(secretB)).signer().sign('dlv_1', at, '{}'), at)).toEqual([secretB]);
    // A service with the old one's sealed text again (never served from another service's entry).
    expect(signedWith(cache.open(8, sealed(secretA)).signer().sign('dlv_1', at, '{}'), at)).toEqual([secretA]);
    expect(signedWith(cache.open(7, sealed(secretB)).signer().sign('dlv_1', at, '{}'), at)).toEqual([secretB]);
  });

  it('opens a row sealed under the previous key, and the same secret re-sealed under the current one', () => {
    const cache = new OpenedSecretsCache({ current: KEY, previous: OLD_KEY });
    const at = new Date();
    expect(signedWith(cache.open(7, sealed(secretA, OLD_KEY)).signer().sign('dlv_1', at, '{}'), at)).toEqual([secretA]);
    expect(signedWith(cache.open(7, sealed(secretB, KEY)).signer().sign('dlv_1', at, '{}'), at)).toEqual([secretB]);
    expect(() => new OpenedSecretsCache({ current: KEY }).open(7, sealed(secretA, OLD_KEY))).toThrow();
  });

  it('a service without secrets has no signer, and opened secrets never serialise', () => {
    const cache = new OpenedSecretsCache({ current: KEY });
    expect(cache.open(9, null).values).toEqual({});
    expect(() => cache.open(9, null).signer()).toThrow();
    const opened = cache.open(7, sealed(secretA));
    opened.signer();
    const shown = `${JSON.stringify({ opened })} ${inspect(opened)} ${inspect({ opened })}`;
    expect(shown).not.toContain(secretA);
    expect(shown).not.toContain('whsec_');
    expect(shown).not.toContain('example.com');
  });
});
