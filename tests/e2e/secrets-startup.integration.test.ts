import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { serviceTestEnv, SOURCE_NODE_ARGS } from '@pulseboard/test-kit';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Runs a service's main with exactly `env` (no inherited secrets); its exit code and output. */
function run(service: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...SOURCE_NODE_ARGS, `services/${service}/src/main.ts`], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/** The test environment without the secrets the kit adds. */
function withoutSecrets(): Record<string, string> {
  const { ADMIN_TOKEN: _a, SECRETS_KEY: _s, ...rest } = serviceTestEnv();
  return rest;
}

// Each case starts processes (tsx compiles on start): room for a busy machine.
describe('no known secrets: the services refuse to start', { timeout: 180_000 }, () => {
  it.each([
    ['unset', {}, /must have required property 'SECRETS_KEY'/, /must have required property 'ADMIN_TOKEN'/],
    [
      'the old defaults',
      { SECRETS_KEY: 'pulseboard-development-secrets-key', ADMIN_TOKEN: 'change-me-to-a-long-secret' },
      /SECRETS_KEY is a published default/,
      /ADMIN_TOKEN is a published default/,
    ],
    [
      'the old Kubernetes placeholders',
      { SECRETS_KEY: 'CHANGE_ME_TO_A_LONG_RANDOM_SECRET', ADMIN_TOKEN: 'CHANGE_ME' },
      /SECRETS_KEY is a published default/,
      /ADMIN_TOKEN is a published default/,
    ],
    [
      'short ones',
      { SECRETS_KEY: 'k'.repeat(8) + '0123456789abcdefghij', ADMIN_TOKEN: '0123456789abcdefghijklmnopqrstu' },
      /SECRETS_KEY must be at least 32 bytes/,
      /ADMIN_TOKEN must be at least 32 bytes/,
    ],
  ])('gateway with %s secrets: exits naming both variables at once', async (_what, secrets, keyError, tokenError) => {
    const { code, output } = await run('gateway', { ...withoutSecrets(), ...secrets });
    expect(code).not.toBe(0);
    expect(output).toMatch(keyError);
    expect(output).toMatch(tokenError);
    expect(output).not.toContain('gateway_started');
  });

  it('the notification service with a placeholder SECRETS_KEY, or a weak SECRETS_KEY_PREVIOUS', async () => {
    const placeholder = await run('notification', { ...withoutSecrets(), SECRETS_KEY: 'change-me-to-a-long-random-secret' });
    expect(placeholder.code).not.toBe(0);
    expect(placeholder.output).toMatch(/SECRETS_KEY is a published default/);
    const previous = await run('notification', { ...withoutSecrets(), SECRETS_KEY: randomBytes(32).toString('base64url'), SECRETS_KEY_PREVIOUS: 'short' });
    expect(previous.code).not.toBe(0);
    expect(previous.output).toMatch(/SECRETS_KEY_PREVIOUS must be at least 32 bytes/);
    expect(previous.output).not.toContain('notification_started');
  });
});
