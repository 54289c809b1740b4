import { accessSync, constants, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/**
 * How every service connects to secured Kafka clusters: TLS (a CA bundle, a client certificate
 * and key for mTLS) and SASL (PLAIN, SCRAM-SHA-256/512, OAUTHBEARER). Each secret can come as
 * a value or as a file path (a mounted Secret); values are never logged. Consistency between the
 * settings (a mechanism without a username, a certificate without its key, ...) is checked with
 * the rest of the environment, every problem at once (the `kafkaSecurity` keyword of loadEnv).
 */
export const kafkaSecurityEnvProperties = {
  KAFKA_SSL: {
    type: 'boolean',
    default: false,
    description:
      'Connect to the Kafka brokers over TLS (Confluent Cloud, MSK, a Strimzi TLS listener). The other KAFKA_SSL_* settings need it; without KAFKA_SSL_CA(_FILE) the system CA store verifies the brokers.',
  },
  KAFKA_SSL_CA: {
    type: 'string',
    default: '',
    description: "PEM CA bundle that verifies the brokers' certificates, as a value (use KAFKA_SSL_CA_FILE for a mounted file). Empty: the system CA store.",
  },
  KAFKA_SSL_CA_FILE: {
    type: 'string',
    default: '',
    description: "Path of a PEM CA bundle that verifies the brokers' certificates (e.g. a Strimzi cluster CA mounted from its Secret).",
  },
  KAFKA_SSL_CERT: {
    type: 'string',
    default: '',
    description: 'PEM client certificate (chain) for mutual TLS, as a value; needs KAFKA_SSL_KEY or KAFKA_SSL_KEY_FILE.',
  },
  KAFKA_SSL_CERT_FILE: {
    type: 'string',
    default: '',
    description: 'Path of a PEM client certificate (chain) for mutual TLS; needs KAFKA_SSL_KEY or KAFKA_SSL_KEY_FILE.',
  },
  KAFKA_SSL_KEY: {
    type: 'string',
    default: '',
    description: 'Unencrypted PEM private key of the client certificate, as a value (a secret: set it from a Secret, or use KAFKA_SSL_KEY_FILE).',
  },
  KAFKA_SSL_KEY_FILE: { type: 'string', default: '', description: 'Path of the unencrypted PEM private key of the client certificate.' },
  KAFKA_SSL_REJECT_UNAUTHORIZED: {
    type: 'boolean',
    default: true,
    description: 'Refuse brokers whose certificate the CA does not verify or whose name does not match. Turn off only to diagnose; never in production.',
  },
  KAFKA_SASL_MECHANISM: {
    type: 'string',
    enum: ['', 'plain', 'scram-sha-256', 'scram-sha-512', 'oauthbearer'],
    default: '',
    kafkaSecurity: true,
    description:
      'SASL mechanism: plain, scram-sha-256, scram-sha-512 (need KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD or KAFKA_SASL_PASSWORD_FILE) or oauthbearer (needs KAFKA_SASL_OAUTHBEARER_TOKEN_FILE). Empty: no SASL. Use it with KAFKA_SSL=true: PLAIN sends the password as it is.',
  },
  KAFKA_SASL_USERNAME: { type: 'string', default: '', description: 'SASL user name (PLAIN, SCRAM); an API key on Confluent Cloud.' },
  KAFKA_SASL_PASSWORD: { type: 'string', default: '', description: 'SASL password (PLAIN, SCRAM), as a value: set it from a Secret. Never logged.' },
  KAFKA_SASL_PASSWORD_FILE: {
    type: 'string',
    default: '',
    description: 'Path of a file holding the SASL password (PLAIN, SCRAM), read at start; trailing newlines are ignored. Instead of KAFKA_SASL_PASSWORD.',
  },
  KAFKA_SASL_OAUTHBEARER_TOKEN_FILE: {
    type: 'string',
    default: '',
    description:
      'OAUTHBEARER: path of a file holding the bearer token (a JWT), read again at every authentication, so a sidecar or a Kubernetes projected token can refresh it (e.g. MSK IAM tokens made by aws-msk-iam-sasl-signer).',
  },
} as const;

export interface KafkaSecurityEnv {
  KAFKA_SSL: boolean;
  KAFKA_SSL_CA: string;
  KAFKA_SSL_CA_FILE: string;
  KAFKA_SSL_CERT: string;
  KAFKA_SSL_CERT_FILE: string;
  KAFKA_SSL_KEY: string;
  KAFKA_SSL_KEY_FILE: string;
  KAFKA_SSL_REJECT_UNAUTHORIZED: boolean;
  KAFKA_SASL_MECHANISM: '' | 'plain' | 'scram-sha-256' | 'scram-sha-512' | 'oauthbearer';
  KAFKA_SASL_USERNAME: string;
  KAFKA_SASL_PASSWORD: string;
  KAFKA_SASL_PASSWORD_FILE: string;
  KAFKA_SASL_OAUTHBEARER_TOKEN_FILE: string;
}

/** A bearer token as kafkajs' `oauthBearerProvider` returns it. */
export interface OAuthBearerToken {
  value: string;
}

type PasswordSasl<M extends string> = { mechanism: M; username: string; password: string };

/** The `ssl` and `sasl` options of a kafkajs client (structurally kafkajs' own types). */
export interface KafkaSecurity {
  ssl?: { ca?: string[]; cert?: string; key?: string; rejectUnauthorized: boolean };
  sasl?:
    | PasswordSasl<'plain'>
    | PasswordSasl<'scram-sha-256'>
    | PasswordSasl<'scram-sha-512'>
    | { mechanism: 'oauthbearer'; oauthBearerProvider: () => Promise<OAuthBearerToken> };
  /** What to check when the brokers refuse to authenticate us: the settings that were used, by name. */
  authenticationHint?: string;
  /** What to check when the brokers' certificate is not trusted. */
  tlsHint?: string;
  /** What to check when no broker could be used at all. */
  unusableHint?: string;
}

type Problem = { setting: string; message: string };

const isTrue = (value: unknown) => value === true || value === 'true';
const text = (value: unknown) => (typeof value === 'string' ? value : '');

function readable(path: string): string | undefined {
  try {
    accessSync(path, constants.R_OK);
    return undefined;
  } catch (error) {
    return `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
}

const PEM = { certificate: /-----BEGIN [A-Z0-9 ]*CERTIFICATE-----/, key: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/ };
const ENCRYPTED_KEY = /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/;

/** Every inconsistency of the KAFKA_SSL_* / KAFKA_SASL_* settings, each naming the setting to fix. */
export function kafkaSecurityProblems(env: Record<string, unknown>): Problem[] {
  const problems: Problem[] = [];
  const get = (name: keyof KafkaSecurityEnv) => text(env[name]);
  const ssl = isTrue(env.KAFKA_SSL);

  // A PEM value or file, never both; checked to be PEM of the right kind, so a swapped or empty file shows now.
  const pemSetting = (name: 'KAFKA_SSL_CA' | 'KAFKA_SSL_CERT' | 'KAFKA_SSL_KEY', kind: keyof typeof PEM): boolean => {
    const value = get(name);
    const file = get(`${name}_FILE`);
    if (value !== '' && file !== '') problems.push({ setting: `${name}_FILE`, message: `and ${name} are both set: set one of them` });
    if (value === '' && file === '') return false;
    if (!ssl)
      problems.push({ setting: value !== '' ? name : `${name}_FILE`, message: 'is set but KAFKA_SSL is not true: set KAFKA_SSL=true to connect over TLS' });
    let content = value;
    const setting = value !== '' ? name : `${name}_FILE`;
    if (value === '') {
      const why = readable(file);
      if (why !== undefined) {
        problems.push({ setting, message: why });
        return true;
      }
      content = readFileSync(file, 'utf8');
    }
    if (!PEM[kind].test(content)) problems.push({ setting, message: `holds no PEM ${kind === 'key' ? 'private key' : 'certificate'} (-----BEGIN ...-----)` });
    else if (kind === 'key' && ENCRYPTED_KEY.test(content))
      problems.push({ setting, message: 'holds an encrypted private key: give it unencrypted (openssl pkey -in key.pem -out plain.pem)' });
    return true;
  };
  pemSetting('KAFKA_SSL_CA', 'certificate');
  const cert = pemSetting('KAFKA_SSL_CERT', 'certificate');
  const key = pemSetting('KAFKA_SSL_KEY', 'key');
  if (cert && !key) problems.push({ setting: 'KAFKA_SSL_KEY', message: 'must be set (or KAFKA_SSL_KEY_FILE) with a client certificate (KAFKA_SSL_CERT)' });
  if (key && !cert) problems.push({ setting: 'KAFKA_SSL_CERT', message: 'must be set (or KAFKA_SSL_CERT_FILE) with a client key (KAFKA_SSL_KEY)' });
  if (!ssl && env.KAFKA_SSL_REJECT_UNAUTHORIZED !== undefined && !isTrue(env.KAFKA_SSL_REJECT_UNAUTHORIZED)) {
    problems.push({ setting: 'KAFKA_SSL_REJECT_UNAUTHORIZED', message: 'is false but KAFKA_SSL is not true' });
  }

  const mechanism = get('KAFKA_SASL_MECHANISM');
  const username = get('KAFKA_SASL_USERNAME');
  const password = get('KAFKA_SASL_PASSWORD');
  const passwordFile = get('KAFKA_SASL_PASSWORD_FILE');
  const tokenFile = get('KAFKA_SASL_OAUTHBEARER_TOKEN_FILE');
  if (password !== '' && passwordFile !== '')
    problems.push({ setting: 'KAFKA_SASL_PASSWORD_FILE', message: 'and KAFKA_SASL_PASSWORD are both set: set one of them' });
  if (mechanism === 'plain' || mechanism === 'scram-sha-256' || mechanism === 'scram-sha-512') {
    if (username === '') problems.push({ setting: 'KAFKA_SASL_USERNAME', message: `must be set with KAFKA_SASL_MECHANISM=${mechanism}` });
    if (password === '' && passwordFile === '')
      problems.push({ setting: 'KAFKA_SASL_PASSWORD', message: `must be set (or KAFKA_SASL_PASSWORD_FILE) with KAFKA_SASL_MECHANISM=${mechanism}` });
    if (passwordFile !== '') {
      const why = readable(passwordFile);
      if (why !== undefined) problems.push({ setting: 'KAFKA_SASL_PASSWORD_FILE', message: why });
      else if (readFileSync(passwordFile, 'utf8').replace(/[\r\n]+$/, '') === '')
        problems.push({ setting: 'KAFKA_SASL_PASSWORD_FILE', message: `names an empty file (${passwordFile})` });
    }
    if (tokenFile !== '') problems.push({ setting: 'KAFKA_SASL_OAUTHBEARER_TOKEN_FILE', message: `is for KAFKA_SASL_MECHANISM=oauthbearer, not ${mechanism}` });
  } else if (mechanism === 'oauthbearer') {
    if (tokenFile === '') problems.push({ setting: 'KAFKA_SASL_OAUTHBEARER_TOKEN_FILE', message: 'must be set with KAFKA_SASL_MECHANISM=oauthbearer' });
    else {
      const why = readable(tokenFile);
      if (why !== undefined) problems.push({ setting: 'KAFKA_SASL_OAUTHBEARER_TOKEN_FILE', message: why });
    }
    for (const name of ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD', 'KAFKA_SASL_PASSWORD_FILE'] as const) {
      if (get(name) !== '') problems.push({ setting: name, message: 'is not used by KAFKA_SASL_MECHANISM=oauthbearer: unset it' });
    }
  } else {
    for (const name of ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD', 'KAFKA_SASL_PASSWORD_FILE', 'KAFKA_SASL_OAUTHBEARER_TOKEN_FILE'] as const) {
      if (get(name) !== '')
        problems.push({
          setting: name,
          message: 'is set but KAFKA_SASL_MECHANISM is empty: set the mechanism (plain, scram-sha-256, scram-sha-512, oauthbearer)',
        });
    }
  }
  return problems;
}

/**
 * The ajv keyword behind `kafkaSecurity: true` (on KAFKA_SASL_MECHANISM): reports
 * kafkaSecurityProblems of the whole environment as errors of the settings they name.
 */
export const kafkaSecurityKeyword = {
  keyword: 'kafkaSecurity',
  schemaType: 'boolean',
  errors: true,
  validate: function kafkaSecurity(enabled: boolean, _value: unknown, _schema: unknown, context?: { rootData: unknown }) {
    if (!enabled || context === undefined) return true;
    const problems = kafkaSecurityProblems(context.rootData as Record<string, unknown>);
    if (problems.length === 0) return true;
    (kafkaSecurity as unknown as { errors: object[] }).errors = problems.map((p) => ({
      keyword: 'kafkaSecurity',
      instancePath: `/${p.setting}`,
      message: p.message,
      params: {},
    }));
    return false;
  },
} as const;

const pem = (value: string, file: string) => (value !== '' ? value : readFileSync(file, 'utf8'));

/** Reads the bearer token anew at every authentication: a sidecar or the kubelet may have replaced it since. */
export function oauthBearerTokenFromFile(path: string): () => Promise<OAuthBearerToken> {
  return async () => {
    const value = (await readFile(path, 'utf8')).trim();
    if (value === '') throw new Error(`KAFKA_SASL_OAUTHBEARER_TOKEN_FILE: ${path} is empty`);
    return { value };
  };
}

/**
 * The kafkajs `ssl`/`sasl` options of a validated environment (files read now, the token file at
 * every authentication). An environment without KAFKA_SSL and KAFKA_SASL_MECHANISM gives `{}`.
 */
export function kafkaSecurity(env: KafkaSecurityEnv): KafkaSecurity {
  const security: KafkaSecurity = {};
  if (env.KAFKA_SSL) {
    const ssl: NonNullable<KafkaSecurity['ssl']> = { rejectUnauthorized: env.KAFKA_SSL_REJECT_UNAUTHORIZED };
    if (env.KAFKA_SSL_CA !== '' || env.KAFKA_SSL_CA_FILE !== '') ssl.ca = [pem(env.KAFKA_SSL_CA, env.KAFKA_SSL_CA_FILE)];
    if (env.KAFKA_SSL_CERT !== '' || env.KAFKA_SSL_CERT_FILE !== '') ssl.cert = pem(env.KAFKA_SSL_CERT, env.KAFKA_SSL_CERT_FILE);
    if (env.KAFKA_SSL_KEY !== '' || env.KAFKA_SSL_KEY_FILE !== '') ssl.key = pem(env.KAFKA_SSL_KEY, env.KAFKA_SSL_KEY_FILE);
    security.ssl = ssl;
    const ca =
      env.KAFKA_SSL_CA_FILE !== ''
        ? 'KAFKA_SSL_CA_FILE'
        : env.KAFKA_SSL_CA !== ''
          ? 'KAFKA_SSL_CA'
          : 'KAFKA_SSL_CA or KAFKA_SSL_CA_FILE (unset: the system CA store was used)';
    security.tlsHint = `check ${ca}: it must hold the CA that signed the brokers' certificates, and KAFKA_BROKERS must name hosts those certificates are for`;
  }
  const mechanism = env.KAFKA_SASL_MECHANISM;
  if (mechanism === 'oauthbearer') {
    security.sasl = { mechanism, oauthBearerProvider: oauthBearerTokenFromFile(env.KAFKA_SASL_OAUTHBEARER_TOKEN_FILE) };
    security.authenticationHint = `check the token in KAFKA_SASL_OAUTHBEARER_TOKEN_FILE (${env.KAFKA_SASL_OAUTHBEARER_TOKEN_FILE}): valid, not expired, and accepted by the brokers`;
    // kafkajs takes the brokers' refusal of a token for a success, and then every connection is closed on it.
    security.unusableHint = `with OAUTHBEARER this is how a refused token shows: ${security.authenticationHint}; and check KAFKA_BROKERS`;
  } else if (mechanism !== '') {
    const passwordSetting = env.KAFKA_SASL_PASSWORD_FILE !== '' ? 'KAFKA_SASL_PASSWORD_FILE' : 'KAFKA_SASL_PASSWORD';
    const password = env.KAFKA_SASL_PASSWORD_FILE !== '' ? readFileSync(env.KAFKA_SASL_PASSWORD_FILE, 'utf8').replace(/[\r\n]+$/, '') : env.KAFKA_SASL_PASSWORD;
    security.sasl = { mechanism, username: env.KAFKA_SASL_USERNAME, password };
    security.authenticationHint = `check KAFKA_SASL_USERNAME (${JSON.stringify(env.KAFKA_SASL_USERNAME)}) and ${passwordSetting}, and that KAFKA_SASL_MECHANISM=${mechanism} is one the brokers enable`;
  }
  return security;
}
