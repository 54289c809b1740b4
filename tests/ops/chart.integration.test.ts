import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { envelope, freePort, provisionProject, request, serviceTestEnv, waitFor } from '@pulseboard/test-kit';
import { loadGatewayEnv, gatewayEnvProperties } from '../../services/gateway/src/env.ts';
import { loadBroadcastEnv, broadcastEnvProperties } from '../../services/broadcast/src/env.ts';
import { loadStoreEnv, storeEnvProperties } from '../../services/store/src/env.ts';
import { loadRuleEngineEnv, ruleEngineEnvProperties } from '../../services/rule-engine/src/env.ts';
import { loadNotificationEnv, notificationEnvProperties } from '../../services/notification/src/env.ts';
import { renderedReadme } from '../../deploy/helm/values-table.ts';
import { policyViolations } from './chart-policy.ts';
import { k8s130Errors, openApiVersions, VERSION_MARKER } from './k8s-api-1.30.ts';
import { CHART, helm, render, root, type K8sObject } from './helm.ts';

const generateSecret = () => randomBytes(32).toString('base64url');
const PRODUCTION = `${CHART}/values-production.yaml`;
const SERVICES = {
  gateway: { key: 'gateway', load: loadGatewayEnv, properties: gatewayEnvProperties },
  broadcast: { key: 'broadcast', load: loadBroadcastEnv, properties: broadcastEnvProperties },
  store: { key: 'store', load: loadStoreEnv, properties: storeEnvProperties },
  'rule-engine': { key: 'ruleEngine', load: loadRuleEngineEnv, properties: ruleEngineEnvProperties },
  notification: { key: 'notification', load: loadNotificationEnv, properties: notificationEnvProperties },
} as const;

/** The model class of an object's apiVersion and kind: Kubernetes' own, prometheus-operator's or KEDA's schemas. */
async function modelOf(object: K8sObject): Promise<new (data: unknown) => { validate(): void }> {
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
  const path =
    group === 'monitoring.coreos.com' ? `@kubernetes-models/prometheus-operator/${group}/${version}/${object.kind}`
    : group === 'keda.sh' ? `@kubernetes-models/keda/${group}/${version}/${object.kind}`
    : `kubernetes-models/${group === '' ? '' : `${group}/`}${version}/${object.kind}`;
  return ((await import(path)) as Record<string, new (data: unknown) => { validate(): void }>)[object.kind]!;
}

const CRD_GROUPS = new Set(['monitoring.coreos.com', 'keda.sh']);
const deployments = (objects: K8sObject[]) => objects.filter((o) => o.kind === 'Deployment');
const deploymentOf = (objects: K8sObject[], service: string) => deployments(objects).find((d) => d.metadata.name === `pb-pulseboard-${service}`)!;

/** A container's environment as the kubelet would give it, Secret references read from `secret`. */
function containerEnv(deployment: K8sObject, secret: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const e of deployment.spec.template.spec.containers[0].env as { name: string; value?: string; valueFrom?: { secretKeyRef: { key: string; optional?: boolean } } }[]) {
    if (e.value !== undefined) env[e.name] = e.value;
    else if (e.valueFrom !== undefined) {
      const value = secret[e.valueFrom.secretKeyRef.key];
      if (value === undefined && e.valueFrom.secretKeyRef.optional !== true) throw new Error(`${deployment.metadata.name}: ${e.name} needs Secret key ${e.valueFrom.secretKeyRef.key}`);
      if (value !== undefined) env[e.name] = value;
    }
  }
  return env;
}

describe('the Helm chart, checked with helm and the Kubernetes 1.30 API schemas', () => {
  const rendered = { default: render(), production: render([PRODUCTION]) };

  it('passes helm lint --strict with the default and the production values', () => {
    for (const args of [[], ['-f', PRODUCTION]]) {
      const lint = helm(['lint', '--strict', CHART, ...args]);
      expect(lint.output).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
      expect(lint.code).toBe(0);
    }
  });

  it('renders what each set of values promises', () => {
    const kinds = (objects: K8sObject[]) => objects.map((o) => o.kind).sort();
    expect(kinds(rendered.default)).toEqual(['Deployment', 'Deployment', 'Deployment', 'Deployment', 'Deployment', 'HorizontalPodAutoscaler', 'HorizontalPodAutoscaler', 'Job', 'PodDisruptionBudget', 'PodDisruptionBudget', 'PodDisruptionBudget', 'PodDisruptionBudget', 'PodDisruptionBudget', 'Service', 'Service']);
    const production = rendered.production;
    expect(production.filter((o) => o.kind === 'ScaledObject').map((o) => o.metadata.name).sort()).toEqual(['pb-pulseboard-notification', 'pb-pulseboard-rule-engine', 'pb-pulseboard-store']);
    expect(production.filter((o) => o.kind === 'NetworkPolicy')).toHaveLength(5);
    expect(production.filter((o) => o.kind === 'ServiceMonitor')).toHaveLength(1);
    expect(production.find((o) => o.kind === 'HorizontalPodAutoscaler' && o.metadata.name === 'pb-pulseboard-gateway')!.spec.minReplicas).toBe(3);
    // The migrations run before the services roll, and no Secret with a value of ours exists.
    const job = production.find((o) => o.kind === 'Job')!;
    expect(job.metadata.annotations!['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect([...rendered.default, ...production].some((o) => o.kind === 'Secret')).toBe(false);
    // The PrometheusRule carries the alert file of deploy/observability, which the chart keeps a copy of.
    expect(readFileSync(`${CHART}/files/alerts.yaml`, 'utf8')).toBe(readFileSync(`${root}deploy/observability/alerts.yaml`, 'utf8'));
    const rule = production.find((o) => o.kind === 'PrometheusRule')!;
    expect(rule.spec.groups[0].rules.map((r: { alert: string }) => r.alert)).toContain('PulseboardNoTileEvaluation');
  });

  it('validates every rendered object against the Kubernetes 1.30 API, and the CRDs of prometheus-operator and KEDA against their schemas', async () => {
    // The 1.30 document is what the validator reads: every generated file of it says release-1.30.
    expect([...openApiVersions()]).toEqual([VERSION_MARKER]);
    for (const object of [...rendered.default, ...rendered.production]) {
      const where = `${object.kind}/${object.metadata.name}`;
      const crd = CRD_GROUPS.has(object.apiVersion.split('/')[0]!);
      // Kubernetes' own kinds: fields, types and required fields of 1.30 (strict: no field 1.30 lacks).
      if (!crd) expect(k8s130Errors(object), where).toEqual([]);
      // The JSON schemas of kubernetes-models: the CRDs', and formats and bounds of the built-in kinds.
      const Model = await modelOf(object);
      expect(() => new Model(object).validate(), where).not.toThrow();
    }
    const deployment = deployments(rendered.default)[0]!;
    const changed = (change: (pod: any) => void) => {
      const copy = structuredClone(deployment);
      change(copy.spec.template.spec);
      return copy;
    };
    // A field Kubernetes added after 1.30 fails, though the newer schemas of kubernetes-models take it:
    // the container stop signal (1.33), pod-level resources (1.32), supplementalGroupsPolicy (1.31).
    const newer = [
      changed((pod) => (pod.containers[0].lifecycle = { ...pod.containers[0].lifecycle, stopSignal: 'SIGTERM' })),
      changed((pod) => (pod.resources = { limits: { cpu: '1' } })),
      changed((pod) => (pod.securityContext.supplementalGroupsPolicy = 'Strict')),
    ];
    const Deployment = await modelOf(deployment);
    for (const object of newer) {
      expect(() => new Deployment(object).validate()).not.toThrow();
      expect(k8s130Errors(object).join('; ')).toMatch(/unknown field \(not in V1\w+ of Kubernetes 1\.30\)/);
    }
    // A kind 1.30 no longer serves, a wrong type and a missing required field fail too.
    expect(k8s130Errors({ ...rendered.default.find((o) => o.kind === 'HorizontalPodAutoscaler')!, apiVersion: 'autoscaling/v2beta2' })).toEqual(['autoscaling/v2beta2 HorizontalPodAutoscaler: not served by Kubernetes 1.30']);
    expect(k8s130Errors(changed((pod) => (pod.containers[0].ports[0].containerPort = 'http'))).join('; ')).toMatch(/containerPort: expected a number/);
    expect(k8s130Errors(changed((pod) => delete pod.containers[0].name)).join('; ')).toMatch(/containers\[0\]\.name: required by V1Container/);
    const broken = changed((pod) => (pod.containers[0].ports[0].containerPort = 'http'));
    expect(() => new Deployment(broken).validate()).toThrow(/containerPort/);
  });

  it('meets the policy: limits, not root, probes, a release tag; and the policy catches each breach', () => {
    for (const object of [...rendered.default, ...rendered.production]) expect(policyViolations(object), `${object.kind}/${object.metadata.name}`).toEqual([]);
    const base = deployments(rendered.default)[0]!;
    const breach = (change: (container: any, pod: any) => void) => {
      const copy = structuredClone(base);
      change(copy.spec.template.spec.containers[0], copy.spec.template.spec);
      return policyViolations(copy).join('; ');
    };
    expect(breach((c) => delete c.resources.limits)).toMatch(/no cpu and memory limits/);
    expect(breach((c, pod) => ((pod.securityContext.runAsUser = 0), delete c.securityContext.runAsNonRoot, delete pod.securityContext.runAsNonRoot))).toMatch(/may run as root/);
    expect(breach((c) => delete c.readinessProbe)).toMatch(/no readinessProbe/);
    expect(breach((c) => (c.image = 'registry.example.com/pulseboard:latest'))).toMatch(/no release tag/);
  });

  it('refuses wrong values at install: latest, a missing secret, too short a token, KEDA above the partitions, a chart-owned variable, a drain bound past the grace period', () => {
    const template = (...args: string[]) => helm(['template', 'pb', CHART, ...args]);
    expect(template('--set', 'image.tag=latest').output).toMatch(/image\/tag/);
    expect(template('--set', 'secrets.existingSecret=').output).toMatch(/secrets/);
    expect(template('--set', 'secrets.existingSecret=', '--set', 'secrets.databaseUrl=postgres://x', '--set', 'secrets.redisUrl=redis://x', '--set', 'secrets.adminToken=short', '--set', `secrets.secretsKey=${generateSecret()}`).output).toMatch(/adminToken/);
    expect(template('--set', 'store.keda.enabled=true', '--set', 'store.keda.maxReplicaCount=7').output).toMatch(/above kafka.partitions/);
    expect(template('--set', 'config.KAFKA_BROKERS=elsewhere:9092').code).not.toBe(0);
    expect(template('--set', 'gateway.resources=null').code).not.toBe(0);
    // Each service's own drain bound must end before the kubelet's SIGKILL.
    expect(template('--set', 'shutdownTimeoutSeconds=40').output).toMatch(/terminationGracePeriodSeconds must be longer/);
  });

  it("keeps its values table generated from values.yaml's comments", () => {
    const { current, wanted } = renderedReadme();
    expect(current).toBe(wanted);
  });
});

describe('chart and code cannot drift', () => {
  const secret = { DATABASE_URL: 'postgres://pulseboard@pg:5432/pulseboard', REDIS_URL: 'redis://redis:6379', ADMIN_TOKEN: generateSecret(), SECRETS_KEY: generateSecret(), INTERNAL_PROXY_SECRET: generateSecret() };

  it.each(Object.keys(SERVICES))("%s: the rendered environment passes the service's own env schema", (service) => {
    for (const objects of [render(), render([PRODUCTION])]) {
      const env = containerEnv(deploymentOf(objects, service), secret);
      const loaded = SERVICES[service as keyof typeof SERVICES].load(env) as Record<string, unknown>;
      expect(loaded.KAFKA_BROKERS).toBe(env.KAFKA_BROKERS);
      const pod = deploymentOf(objects, service).spec.template.spec;
      expect((loaded.SHUTDOWN_TIMEOUT_MS as number) / 1000).toBeLessThan(pod.terminationGracePeriodSeconds);
      if ('MIGRATE_ON_START' in SERVICES[service as keyof typeof SERVICES].properties) expect(loaded.MIGRATE_ON_START).toBe(false);
      else expect(env).not.toHaveProperty('MIGRATE_ON_START');
    }
  });

  it.each(Object.keys(SERVICES))('%s: every variable it reads can be set from values', (service) => {
    const { key, properties } = SERVICES[service as keyof typeof SERVICES];
    // Set by the chart itself: from its own values (ports, brokers) or from the Secret (optional keys included).
    const chartOwned = new Set((deploymentOf(render(), service).spec.template.spec.containers[0].env as { name: string }[]).map((e) => e.name));
    const settable = Object.keys(properties).filter((name) => !chartOwned.has(name));
    // Each one set through <service>.env reaches the container.
    const objects = render([], Object.fromEntries(settable.map((name) => [`${key}.env.${name}`, `v-${name}`])));
    const env = containerEnv(deploymentOf(objects, service), secret);
    for (const name of settable) expect(env[name], name).toBe(`v-${name}`);
    expect(settable.length).toBeGreaterThan(0);
  });
});

describe('the rendered gateway runs', () => {
  let child: ReturnType<typeof spawn> | undefined;
  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it("starts the real gateway with the rendered command, arguments and environment against the local stack, and it answers /ingest", async () => {
    const local = serviceTestEnv();
    // Topics of this test, set the way an operator would: through values.
    const topics = Object.fromEntries(Object.entries(local).filter(([name]) => name.startsWith('TOPIC_')).map(([name, value]) => [`config.${name}`, value]));
    const objects = render([], { 'kafka.brokers': local.KAFKA_BROKERS!, ...topics, 'gateway.env.WEBHOOK_OUTCOME_TIMEOUT_MS': '0', 'gateway.env.GLOBAL_HOURLY_LIMIT': '100000000', 'gateway.env.DEFAULT_ACCOUNT_HOURLY_LIMIT': '100000000' });
    const container = deploymentOf(objects, 'gateway').spec.template.spec.containers[0];
    const env = containerEnv(deploymentOf(objects, 'gateway'), { DATABASE_URL: local.DATABASE_URL!, REDIS_URL: local.REDIS_URL!, ADMIN_TOKEN: local.ADMIN_TOKEN!, SECRETS_KEY: local.SECRETS_KEY!, INTERNAL_PROXY_SECRET: local.INTERNAL_PROXY_SECRET! });
    // The one change: the container's port 8080 may be taken on this machine.
    const port = await freePort();
    env.GATEWAY_PORT = String(port);
    // The image's entrypoint is node (Dockerfile), run from the image's /app: here, the repository's compiled build.
    child = spawn(process.execPath, [...(container.command ?? []), ...container.args], { cwd: root, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const logs: string[] = [];
    child.stdout!.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    const url = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await request(`${url}/readyz`).catch(() => ({ status: 0 }))).status === 200, { what: 'the rendered gateway ready', timeoutMs: 45_000 }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${logs.join('').slice(-3000)}`);
    });
    const project = await provisionProject(url, env.ADMIN_TOKEN!);
    const answer = await request(`${url}/ingest`, { token: project.apiKey, body: envelope(project.projectKey) });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ status: 'accepted', event_id: expect.any(Number) });
  });
});
describe('client addresses behind the ingress', () => {
  it('gives the gateway and broadcast TRUST_PROXY from trustProxy (empty by default: no proxy believed) and INTERNAL_PROXY_SECRET from the Secret', () => {
    const secret = { DATABASE_URL: 'postgres://x', REDIS_URL: 'redis://x', ADMIN_TOKEN: generateSecret(), SECRETS_KEY: generateSecret(), INTERNAL_PROXY_SECRET: generateSecret() };
    const trusting = render([], { trustProxy: '10.42.0.0/16' });
    for (const service of ['gateway', 'broadcast']) {
      const env = containerEnv(deploymentOf(trusting, service), secret);
      expect(env.TRUST_PROXY, service).toBe('10.42.0.0/16');
      expect(env.INTERNAL_PROXY_SECRET, service).toBe(secret.INTERNAL_PROXY_SECRET);
      expect(containerEnv(deploymentOf(render(), service), secret).TRUST_PROXY, service).toBe('');
    }
    expect(containerEnv(deploymentOf(trusting, 'store'), secret)).not.toHaveProperty('TRUST_PROXY');
    // Not a list of addresses or ranges: refused at install.
    expect(helm(['template', 'pb', CHART, '--set-string', 'trustProxy=everyone']).code).not.toBe(0);
  });
});

