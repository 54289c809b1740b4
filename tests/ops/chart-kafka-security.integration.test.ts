import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import { TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1/TriggerAuthentication';
import { kafkaSecurity } from '../../packages/config/src/index.ts';
import { loadStoreEnv } from '../../services/store/src/env.ts';
import { policyViolations } from './chart-policy.ts';
import { k8s130Errors } from './k8s-api-1.30.ts';
import { CHART, helm, render, type K8sObject } from './helm.ts';

const CA = '-----BEGIN CERTIFICATE-----\nMIIBca\n-----END CERTIFICATE-----\n';
const CERT = '-----BEGIN CERTIFICATE-----\nMIIBuser\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIIEkey\n-----END PRIVATE KEY-----\n';
const KEDA = { 'store.keda.enabled': 'true', 'ruleEngine.keda.enabled': 'true', 'notification.keda.enabled': 'true' };

// Strimzi: the cluster CA's Secret, a KafkaUser's Secret (TLS client certificate and SCRAM password), the user's name as a value.
const STRIMZI = {
  'kafka.brokers': 'my-cluster-kafka-bootstrap.kafka:9093',
  'kafka.tls.caSecret.name': 'my-cluster-cluster-ca-cert',
  'kafka.tls.clientSecret.name': 'pulseboard',
  'kafka.sasl.mechanism': 'scram-sha-512',
  'kafka.sasl.username': 'pulseboard',
  'kafka.sasl.existingSecret': 'pulseboard',
};
// The contents of those Secrets, as the kubelet would mount or inject them.
const SECRETS: Record<string, Record<string, string>> = {
  'my-cluster-cluster-ca-cert': { 'ca.crt': CA },
  pulseboard: { 'user.crt': CERT, 'user.key': KEY, password: 'scram-password-value' },
  'confluent-api-key': { key: 'ABCDEFGHIJ', secret: 'confluent-secret-value' },
};

const deployments = (objects: K8sObject[]) => objects.filter((o) => o.kind === 'Deployment');
const pod = (deployment: K8sObject) => deployment.spec.template.spec;
type EnvEntry = { name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } };

/**
 * A container's Kafka environment as the pod would see it: Secret references resolved from
 * SECRETS, and every Secret volume written to a directory standing in for its mount path.
 */
function podView(deployment: K8sObject): Record<string, string> {
  const spec = pod(deployment);
  const container = spec.containers[0];
  const root = mkdtempSync(join(tmpdir(), 'pb-chart-pod-'));
  const moved = new Map<string, string>();
  for (const mount of container.volumeMounts as { name: string; mountPath: string }[]) {
    const volume = (spec.volumes as { name: string; secret?: { secretName: string; items?: { key: string; path: string }[] } }[]).find(
      (v) => v.name === mount.name,
    )!;
    if (volume.secret === undefined) continue;
    const dir = join(root, mount.name);
    mkdirSync(dir);
    const secret = SECRETS[volume.secret.secretName]!;
    for (const item of volume.secret.items!) writeFileSync(join(dir, item.path), secret[item.key]!);
    moved.set(mount.mountPath, dir);
  }
  const env: Record<string, string> = {};
  for (const e of container.env as EnvEntry[]) {
    if (!e.name.startsWith('KAFKA_')) continue;
    let value = e.value ?? SECRETS[e.valueFrom!.secretKeyRef.name]![e.valueFrom!.secretKeyRef.key]!;
    for (const [from, to] of moved) if (value.startsWith(`${from}/`)) value = to + value.slice(from.length);
    env[e.name] = value;
  }
  return env;
}

function scaledObjects(objects: K8sObject[]) {
  return objects.filter((o) => o.kind === 'ScaledObject');
}

describe('the Helm chart: Kafka over TLS and SASL for the services and for KEDA', () => {
  it('by default: no TLS or SASL setting, no Kafka volume, no TriggerAuthentication', () => {
    const objects = render([], {}, KEDA);
    for (const deployment of deployments(objects)) {
      expect(
        pod(deployment)
          .containers[0].env.map((e: EnvEntry) => e.name)
          .filter((n: string) => n.startsWith('KAFKA_')),
      ).toEqual(['KAFKA_BROKERS']);
      expect(pod(deployment).volumes.map((v: { name: string }) => v.name)).toEqual(['tmp']);
    }
    expect(objects.some((o) => o.kind === 'TriggerAuthentication')).toBe(false);
    for (const scaled of scaledObjects(objects)) expect(scaled.spec.triggers[0].authenticationRef).toBeUndefined();
  });

  it('Strimzi (TLS listener, client certificate, SCRAM-SHA-512): every service gets the mounted files, which its env schema accepts; KEDA reads the same Secrets', () => {
    const objects = render([], STRIMZI, { ...KEDA, 'kafka.tls.enabled': 'true' });
    expect(deployments(objects)).toHaveLength(5);
    for (const deployment of deployments(objects)) {
      const where = deployment.metadata.name;
      expect(k8s130Errors(deployment), where).toEqual([]);
      expect(policyViolations(deployment), where).toEqual([]);
      const env = podView(deployment);
      expect(env, where).toMatchObject({ KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'pulseboard' });
      // No secret in the environment itself: files only.
      expect(pod(deployment).containers[0].env.some((e: EnvEntry) => e.name === 'KAFKA_SASL_PASSWORD' || e.name === 'KAFKA_SSL_KEY')).toBe(false);
      // What the service would build from it (its own schema validates the files too).
      const security = kafkaSecurity(loadStoreEnv({ ...env, DATABASE_URL: 'postgres://x@db/pb' }));
      expect(security.ssl).toEqual({ ca: [CA], cert: CERT, key: KEY, rejectUnauthorized: true });
      expect(security.sasl).toEqual({ mechanism: 'scram-sha-512', username: 'pulseboard', password: 'scram-password-value' });
    }

    const [auth, ...others] = objects.filter((o) => o.kind === 'TriggerAuthentication');
    expect(others).toEqual([]);
    new TriggerAuthentication(auth as never).validate();
    expect(auth!.metadata.name).toBe('pb-pulseboard-kafka');
    expect(auth!.spec.env).toEqual([{ parameter: 'username', name: 'KAFKA_SASL_USERNAME' }]);
    expect(auth!.spec.secretTargetRef).toEqual([
      { parameter: 'password', name: 'pulseboard', key: 'password' },
      { parameter: 'ca', name: 'my-cluster-cluster-ca-cert', key: 'ca.crt' },
      { parameter: 'cert', name: 'pulseboard', key: 'user.crt' },
      { parameter: 'key', name: 'pulseboard', key: 'user.key' },
    ]);
    const scaled = scaledObjects(objects);
    expect(scaled).toHaveLength(3);
    for (const object of scaled) {
      new ScaledObject(object as never).validate();
      const [trigger] = object.spec.triggers;
      expect(trigger.authenticationRef).toEqual({ name: 'pb-pulseboard-kafka' });
      expect(trigger.metadata).toMatchObject({ bootstrapServers: 'my-cluster-kafka-bootstrap.kafka:9093', tls: 'enable', sasl: 'scram_sha512' });
      expect(trigger.metadata).not.toHaveProperty('unsafeSsl');
    }
  });

  it('Confluent Cloud (SASL_SSL, PLAIN, API key and secret from one Secret, the system CA store): no CA file, the user name from the Secret for the services and KEDA', () => {
    const objects = render(
      [],
      {
        'kafka.brokers': 'pkc-xxxxx.eu-west-1.aws.confluent.cloud:9092',
        'kafka.sasl.mechanism': 'plain',
        'kafka.sasl.existingSecret': 'confluent-api-key',
        'kafka.sasl.usernameKey': 'key',
        'kafka.sasl.passwordKey': 'secret',
      },
      { ...KEDA, 'kafka.tls.enabled': 'true' },
    );
    for (const deployment of deployments(objects)) {
      const env = podView(deployment);
      expect(env).not.toHaveProperty('KAFKA_SSL_CA_FILE');
      const security = kafkaSecurity(loadStoreEnv({ ...env, DATABASE_URL: 'postgres://x@db/pb' }));
      expect(security.ssl).toEqual({ rejectUnauthorized: true });
      expect(security.sasl).toEqual({ mechanism: 'plain', username: 'ABCDEFGHIJ', password: 'confluent-secret-value' });
    }
    const auth = objects.find((o) => o.kind === 'TriggerAuthentication')!;
    expect(auth.spec.env).toBeUndefined();
    expect(auth.spec.secretTargetRef).toEqual([
      { parameter: 'username', name: 'confluent-api-key', key: 'key' },
      { parameter: 'password', name: 'confluent-api-key', key: 'secret' },
    ]);
    for (const object of scaledObjects(objects)) expect(object.spec.triggers[0].metadata).toMatchObject({ tls: 'enable', sasl: 'plaintext' });
  });

  it('OAUTHBEARER: the token volume is mounted and named by the token file; KEDA needs a TriggerAuthentication of your own', () => {
    const oauth = {
      'kafka.sasl.mechanism': 'oauthbearer',
      'kafka.sasl.oauthbearer.tokenVolume.projected.sources[0].serviceAccountToken.audience': 'kafka',
      'kafka.sasl.oauthbearer.tokenVolume.projected.sources[0].serviceAccountToken.path': 'token',
    };
    const objects = render([], oauth, { 'kafka.tls.enabled': 'true' });
    for (const deployment of deployments(objects)) {
      expect(k8s130Errors(deployment)).toEqual([]);
      const spec = pod(deployment);
      expect(spec.containers[0].env).toContainEqual({ name: 'KAFKA_SASL_OAUTHBEARER_TOKEN_FILE', value: '/var/run/secrets/pulseboard/kafka-token/token' });
      expect(spec.containers[0].volumeMounts).toContainEqual({ name: 'kafka-token', mountPath: '/var/run/secrets/pulseboard/kafka-token', readOnly: true });
      expect(spec.volumes).toContainEqual({ name: 'kafka-token', projected: { sources: [{ serviceAccountToken: { audience: 'kafka', path: 'token' } }] } });
    }
    const refused = helm([
      'template',
      'pb',
      CHART,
      ...Object.entries(oauth).flatMap(([k, v]) => ['--set-string', `${k}=${v}`]),
      ...Object.entries(KEDA).flatMap(([k, v]) => ['--set', `${k}=${v}`]),
    ]);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/cannot read the services' OAUTHBEARER token file: .*kafka\.keda\.authenticationRef/);
    const own = render([], { ...oauth, 'kafka.keda.authenticationRef': 'kafka-oauth' }, KEDA);
    expect(own.some((o) => o.kind === 'TriggerAuthentication')).toBe(false);
    for (const object of scaledObjects(own))
      expect(object.spec.triggers[0]).toMatchObject({ authenticationRef: { name: 'kafka-oauth' }, metadata: { sasl: 'oauthbearer' } });
  });

  it('refuses at render time what cannot work, naming the value', () => {
    const fails = (set: Record<string, string>, typed: Record<string, string> = {}) => {
      const args = [
        'template',
        'pb',
        CHART,
        ...Object.entries(set).flatMap(([k, v]) => ['--set-string', `${k}=${v}`]),
        ...Object.entries(typed).flatMap(([k, v]) => ['--set', `${k}=${v}`]),
      ];
      const result = helm(args);
      expect(result.code).not.toBe(0);
      return result.output;
    };
    expect(fails({ 'kafka.sasl.mechanism': 'scram-sha-256', 'kafka.sasl.username': 'u' })).toMatch(
      /kafka\.sasl\.existingSecret is required with kafka\.sasl\.mechanism=scram-sha-256/,
    );
    expect(fails({ 'kafka.sasl.mechanism': 'plain', 'kafka.sasl.existingSecret': 's' })).toMatch(
      /kafka\.sasl\.username \(or kafka\.sasl\.usernameKey\) is required/,
    );
    expect(fails({ 'kafka.sasl.mechanism': 'oauthbearer' })).toMatch(/kafka\.sasl\.oauthbearer\.tokenVolume is required/);
    expect(fails({ 'kafka.tls.caSecret.name': 'ca' })).toMatch(/kafka\.tls\.enabled is false/);
    expect(fails({ 'kafka.sasl.mechanism': 'gssapi' })).toMatch(/mechanism/);
    // The chart owns these variables: set through config or a service's env, they would contradict the values above.
    expect(fails({ 'config.KAFKA_SSL': 'true' })).toMatch(/invalid propertyName 'KAFKA_SSL'/);
    expect(fails({ 'store.env.KAFKA_SASL_PASSWORD': 'x' })).toMatch(/invalid propertyName 'KAFKA_SASL_PASSWORD'/);
    // KEDA verifies no certificate only when the services do not either.
    const unsafe = render([], {}, { ...KEDA, 'kafka.tls.enabled': 'true', 'kafka.tls.rejectUnauthorized': 'false' });
    for (const object of scaledObjects(unsafe)) expect(object.spec.triggers[0].metadata).toMatchObject({ tls: 'enable', unsafeSsl: 'true' });
    expect(podView(deployments(unsafe)[0]!)).toMatchObject({ KAFKA_SSL: 'true', KAFKA_SSL_REJECT_UNAUTHORIZED: 'false' });
  });

  it('passes helm lint --strict with TLS and SASL values', () => {
    const args = [
      ...Object.entries(STRIMZI).flatMap(([k, v]) => ['--set-string', `${k}=${v}`]),
      ...Object.entries({ ...KEDA, 'kafka.tls.enabled': 'true' }).flatMap(([k, v]) => ['--set', `${k}=${v}`]),
    ];
    const lint = helm(['lint', '--strict', CHART, ...args]);
    expect(lint.output).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
    expect(lint.code).toBe(0);
  });
});
