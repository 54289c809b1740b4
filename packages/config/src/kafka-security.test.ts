import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commonEnvProperties, loadEnv, type EnvOf } from './env.ts';
import { kafkaSecurity } from './kafka-security.ts';

type Env = EnvOf<typeof commonEnvProperties>;
const load = (env: Record<string, string>) => loadEnv<Env>(commonEnvProperties, env);
const dir = mkdtempSync(join(tmpdir(), 'pb-kafka-security-'));
const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const CERT = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n';

function problems(env: Record<string, string>): string {
  try {
    load(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the environment was accepted');
}

describe('Kafka TLS and SASL settings', () => {
  it('gives no ssl or sasl by default', () => {
    expect(kafkaSecurity(load({}))).toEqual({});
  });

  it('reads the CA, client certificate and key from files, and the password from a file without its newline', () => {
    const env = load({
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: file('ca.pem', CERT),
      KAFKA_SSL_CERT_FILE: file('cert.pem', CERT),
      KAFKA_SSL_KEY: KEY,
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'pulseboard',
      KAFKA_SASL_PASSWORD_FILE: file('password', 's3cret-value\n'),
    });
    const security = kafkaSecurity(env);
    expect(security.ssl).toEqual({ ca: [CERT], cert: CERT, key: KEY, rejectUnauthorized: true });
    expect(security.sasl).toEqual({ mechanism: 'scram-sha-512', username: 'pulseboard', password: 's3cret-value' });
    expect(security.authenticationHint).toContain('KAFKA_SASL_PASSWORD_FILE');
    expect(security.authenticationHint).not.toContain('s3cret-value');
  });

  it('reads the OAUTHBEARER token file again at every authentication', async () => {
    const path = file('token', 'first.token.value\n');
    const { sasl } = kafkaSecurity(load({ KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'oauthbearer', KAFKA_SASL_OAUTHBEARER_TOKEN_FILE: path }));
    if (sasl?.mechanism !== 'oauthbearer') throw new Error('expected oauthbearer');
    expect(await sasl.oauthBearerProvider()).toEqual({ value: 'first.token.value' });
    writeFileSync(path, 'second.token.value');
    expect(await sasl.oauthBearerProvider()).toEqual({ value: 'second.token.value' });
  });

  it('reports every inconsistent setting at once, by name, with the other errors of the environment', () => {
    const message = problems({
      DATABASE_POOL_SIZE: '0',
      KAFKA_SSL_CA: CERT,
      KAFKA_SSL_CERT_FILE: join(dir, 'missing.pem'),
      KAFKA_SASL_MECHANISM: 'scram-sha-256',
      KAFKA_SASL_PASSWORD: 'a-password',
      KAFKA_SASL_PASSWORD_FILE: file('password2', 'x'),
    });
    expect(message).toContain('DATABASE_POOL_SIZE');
    expect(message).toMatch(/KAFKA_SSL_CA is set but KAFKA_SSL is not true/);
    expect(message).toMatch(/KAFKA_SSL_CERT_FILE cannot read .*missing\.pem \(ENOENT\)/);
    expect(message).toMatch(/KAFKA_SSL_KEY must be set/);
    expect(message).toMatch(/KAFKA_SASL_USERNAME must be set with KAFKA_SASL_MECHANISM=scram-sha-256/);
    expect(message).toMatch(/KAFKA_SASL_PASSWORD_FILE and KAFKA_SASL_PASSWORD are both set/);
    expect(message).not.toContain('a-password');
  });

  it('refuses a mechanism without its credentials, credentials without a mechanism, and a file that is not PEM', () => {
    expect(problems({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u' })).toMatch(/KAFKA_SASL_PASSWORD must be set/);
    expect(problems({ KAFKA_SASL_MECHANISM: 'oauthbearer' })).toMatch(/KAFKA_SASL_OAUTHBEARER_TOKEN_FILE must be set/);
    expect(problems({ KAFKA_SASL_USERNAME: 'u' })).toMatch(/KAFKA_SASL_USERNAME is set but KAFKA_SASL_MECHANISM is empty/);
    expect(problems({ KAFKA_SASL_MECHANISM: 'gssapi' })).toMatch(/KAFKA_SASL_MECHANISM must be equal to one of the allowed values/);
    expect(problems({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: file('not-pem', 'hello') })).toMatch(/KAFKA_SSL_CA_FILE holds no PEM certificate/);
    expect(problems({ KAFKA_SSL: 'true', KAFKA_SSL_CERT: CERT, KAFKA_SSL_KEY: '-----BEGIN ENCRYPTED PRIVATE KEY-----\n' })).toMatch(
      /KAFKA_SSL_KEY holds an encrypted private key/,
    );
  });
});
