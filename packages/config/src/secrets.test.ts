import { describe, expect, it } from 'vitest';
import { loadEnv, secretsEnvProperties } from './env.ts';
import { generateSecret, secretWeakness } from './secrets.ts';

describe('secrets from the environment', () => {
  it.each([
    ['', /must be set/],
    ['pulseboard-development-secrets-key', /published default or a placeholder/],
    ['change-me-to-a-long-secret', /published default or a placeholder/],
    ['CHANGE_ME', /published default or a placeholder/],
    ['CHANGE_ME_TO_A_LONG_RANDOM_SECRET', /published default or a placeholder/],
    ['please-change-me-0123456789abcdefghijklmnop', /placeholder/],
    ['your-secret-key-goes-here-0123456789abcdefgh', /placeholder/],
    ['<placeholder: a long random value of your own>', /placeholder/],
    ['0123456789abcdef0123456789abcde', /at least 32 bytes/],
    ['a'.repeat(64), /too repetitive/],
    ['abababababababababababababababab', /too repetitive/],
  ])('refuses %j', (value, why) => {
    expect(secretWeakness(value)).toMatch(why);
  });

  it('accepts generated keys (base64url and hex)', () => {
    for (let i = 0; i < 1000; i++) expect(secretWeakness(generateSecret())).toBeUndefined();
    expect(secretWeakness('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08')).toBeUndefined();
  });

  it('names every weak variable at once when the environment is loaded', () => {
    const properties = { ...secretsEnvProperties, ADMIN_TOKEN: { type: 'string', strongSecret: true }, PORT: { type: 'integer', default: 1 } };
    const load = (env: Record<string, string>) => () => loadEnv(properties, env);
    let message = '';
    try {
      load({ SECRETS_KEY: 'pulseboard-development-secrets-key', ADMIN_TOKEN: 'short', PORT: 'eighty' })();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/SECRETS_KEY is a published default/);
    expect(message).toMatch(/ADMIN_TOKEN must be at least 32 bytes/);
    expect(message).toMatch(/PORT must be integer/);
    expect(load({ ADMIN_TOKEN: generateSecret() })).toThrow(/must have required property 'SECRETS_KEY'/);
    expect(load({ SECRETS_KEY: generateSecret(), ADMIN_TOKEN: generateSecret(), SECRETS_KEY_PREVIOUS: 'CHANGE_ME' })).toThrow(
      /SECRETS_KEY_PREVIOUS is a published default/,
    );
    const ok = loadEnv<{ SECRETS_KEY_PREVIOUS: string }>(properties, { SECRETS_KEY: generateSecret(), ADMIN_TOKEN: generateSecret() });
    expect(ok.SECRETS_KEY_PREVIOUS).toBe('');
  });
});
