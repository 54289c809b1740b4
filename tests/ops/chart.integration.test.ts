import { spawn, spawnSync } from 'node:child_process';
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
    group === 'monitoring.coreos.com'
      ? `@kubernetes-models/prometheus-operator/${group}/${version}/${object.kind}`
      : group === 'keda.sh'
        ? `@kubernetes-models/keda/${group}/${version}/${object.kind}`
        : `kubernetes-models/${group === '' ? '' : `${group}/`}${version}/${object.kind}`;
  return ((await import(path)) as Record<string, new (data: unknown) => { validate(): void }>)[object.kind]!;
}

const CRD_GROUPS = new Set(['monitoring.coreos.com', 'keda.sh']);
const deployments = (objects: K8sObject[]) => objects.filter((o) => o.kind === 'Deployment');
const deploymentOf = (objects: K8sObject[], service: string) => deployments(objects).find((d) => d.metadata.name === `pb-pulseboard-${service}`)!;

/** A container's environment as the kubelet would give it, Secret references read from `secret`. */
function containerEnv(deployment: K8sObject, secret: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const e of deployment.spec.template.spec.containers[0].env as {
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef: { key: string; optional?: boolean } };
  }[]) {
    if (e.value !== undefined) env[e.name] = e.value;
    else if (e.valueFrom !== undefined) {
      const value = secret[e.valueFrom.secretKeyRef.key];
      if (value === undefined && e.valueFrom.secretKeyRef.optional !== true)
        throw new Error(`${deployment.metadata.name}: ${e.name} needs Secret key ${e.valueFrom.secretKeyRef.key}`);
      if (value !== undefined) env[e.name] = value;
    }
  }
  return env;
}

// Exposure and scheduling values set: the Ingresses, the chart's ServiceAccount, pod annotations and labels, placement.
const EXPOSED = {
  'ingress.className': 'nginx',
  'ingress.hosts[0]': 'pulseboard.example.com',
  'ingress.tls[0].secretName': 'pulseboard-tls',
  'ingress.tls[0].hosts[0]': 'pulseboard.example.com',
  'ingress.annotations.cert-manager\\.io/cluster-issuer': 'letsencrypt',
  'serviceAccount.annotations.eks\\.amazonaws\\.com/role-arn': 'arn:aws:iam::123456789012:role/pulseboard',
  'podAnnotations.prometheus\\.io/scrape': 'false',
  'podLabels.team': 'observability',
  'nodeSelector.kubernetes\\.io/arch': 'arm64',
  'tolerations[0].key': 'dedicated',
  'tolerations[0].operator': 'Equal',
  'tolerations[0].value': 'pulseboard',
  'tolerations[0].effect': 'NoSchedule',
  'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key': 'pool',
  'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator': 'In',
  'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values[0]': 'apps',
  'topologySpreadConstraints[0].topologyKey': 'topology.kubernetes.io/zone',
  'topologySpreadConstraints[0].whenUnsatisfiable': 'DoNotSchedule',
};
const EXPOSED_TYPED = { 'ingress.enabled': 'true', 'topologySpreadConstraints[0].maxSkew': '1' };

describe('the Helm chart, checked with helm and the Kubernetes 1.30 API schemas', () => {
  const rendered = { default: render(), production: render([PRODUCTION]), exposed: render([], EXPOSED, EXPOSED_TYPED) };

  it('passes helm lint --strict with the default and the production values', () => {
    for (const args of [[], ['-f', PRODUCTION]]) {
      const lint = helm(['lint', '--strict', CHART, ...args]);
      expect(lint.output).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
      expect(lint.code).toBe(0);
    }
  });

  it('renders what each set of values promises', () => {
    const kinds = (objects: K8sObject[]) => objects.map((o) => o.kind).sort();
    expect(kinds(rendered.default)).toEqual([
      'Deployment',
      'Deployment',
      'Deployment',
      'Deployment',
      'Deployment',
      'HorizontalPodAutoscaler',
      'HorizontalPodAutoscaler',
      'Job',
      'PodDisruptionBudget',
      'PodDisruptionBudget',
      'PodDisruptionBudget',
      'PodDisruptionBudget',
      'PodDisruptionBudget',
      'Service',
      'Service',
      'ServiceAccount',
      'ServiceAccount',
    ]);
    const production = rendered.production;
    expect(
      production
        .filter((o) => o.kind === 'ScaledObject')
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(['pb-pulseboard-notification', 'pb-pulseboard-rule-engine', 'pb-pulseboard-store']);
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

  it('exposes itself: Ingresses for the gateway and broadcast (WebSocket timeouts on /ws alone), or HTTPRoutes; a ServiceAccount; pod annotations, labels and placement on every pod', () => {
    const objects = rendered.exposed;
    const services = new Map(objects.filter((o) => o.kind === 'Service').map((s) => [s.metadata.name, s]));
    const ingresses = objects.filter((o) => o.kind === 'Ingress');
    expect(ingresses.map((i) => i.metadata.name).sort()).toEqual(['pb-pulseboard-broadcast', 'pb-pulseboard-gateway']);
    const routes = (name: string) => {
      const ingress = ingresses.find((i) => i.metadata.name === name)!;
      expect(ingress.spec.ingressClassName).toBe('nginx');
      expect(ingress.spec.tls).toEqual([{ secretName: 'pulseboard-tls', hosts: ['pulseboard.example.com'] }]);
      expect(ingress.metadata.annotations!['cert-manager.io/cluster-issuer']).toBe('letsencrypt');
      return (
        ingress.spec.rules as {
          host: string;
          http: { paths: { path: string; pathType: string; backend: { service: { name: string; port: { number: number } } } }[] };
        }[]
      ).flatMap((r) =>
        r.http.paths.map((p) => {
          // Each backend is a rendered Service's port.
          const service = services.get(p.backend.service.name);
          expect(service?.spec.ports.map((port: { port: number }) => port.port)).toContain(p.backend.service.port.number);
          return `${r.host}${p.path} ${p.pathType} -> ${p.backend.service.name}`;
        }),
      );
    };
    expect(routes('pb-pulseboard-gateway')).toEqual([
      'pulseboard.example.com/api Prefix -> pb-pulseboard-gateway',
      'pulseboard.example.com/ingest Prefix -> pb-pulseboard-gateway',
    ]);
    // The dashboard's files and /ws; broadcast's /metrics, /healthz and /readyz stay inside.
    expect(routes('pb-pulseboard-broadcast')).toEqual([
      'pulseboard.example.com/ws Exact -> pb-pulseboard-broadcast',
      'pulseboard.example.com/ Exact -> pb-pulseboard-broadcast',
      'pulseboard.example.com/assets Prefix -> pb-pulseboard-broadcast',
      'pulseboard.example.com/favicon.ico Exact -> pb-pulseboard-broadcast',
    ]);
    const broadcastIngress = ingresses.find((i) => i.metadata.name === 'pb-pulseboard-broadcast')!;
    // ingress-nginx closes a connection idle for proxy-read-timeout (60 s by default): an hour on the WebSocket's Ingress only.
    expect(broadcastIngress.metadata.annotations).toMatchObject({
      'nginx.ingress.kubernetes.io/proxy-read-timeout': '3600',
      'nginx.ingress.kubernetes.io/proxy-send-timeout': '3600',
    });
    expect(ingresses.find((i) => i.metadata.name === 'pb-pulseboard-gateway')!.metadata.annotations).not.toHaveProperty(
      'nginx.ingress.kubernetes.io/proxy-read-timeout',
    );
    // ... and above the broadcast heartbeat, which keeps a quiet socket from ever being idle that long.
    expect(Number(broadcastIngress.metadata.annotations!['nginx.ingress.kubernetes.io/proxy-read-timeout']) * 1000).toBeGreaterThan(
      (broadcastEnvProperties.BROADCAST_HEARTBEAT_MS as { default: number }).default * 4,
    );

    // The services run as the chart's ServiceAccount, no token mounted; the migrations hook Job as its own hook account, made before it.
    const accounts = objects.filter((o) => o.kind === 'ServiceAccount');
    const account = accounts.find((a) => a.metadata.name === 'pb-pulseboard')!;
    expect(account.metadata.annotations).toEqual({ 'eks.amazonaws.com/role-arn': 'arn:aws:iam::123456789012:role/pulseboard' });
    expect(account.automountServiceAccountToken).toBe(false);
    const hookAccount = accounts.find((a) => a.metadata.name === 'pb-pulseboard-migrate')!;
    const job = objects.find((o) => o.kind === 'Job')!;
    expect(hookAccount.metadata.annotations).toMatchObject({
      'helm.sh/hook': job.metadata.annotations!['helm.sh/hook'],
      'eks.amazonaws.com/role-arn': 'arn:aws:iam::123456789012:role/pulseboard',
    });
    expect(Number(hookAccount.metadata.annotations!['helm.sh/hook-weight'])).toBeLessThan(Number(job.metadata.annotations!['helm.sh/hook-weight']));
    expect(job.spec.template.spec.serviceAccountName).toBe('pb-pulseboard-migrate');

    for (const workload of [...deployments(objects), job]) {
      const where = workload.metadata.name;
      const pod = workload.spec.template;
      if (workload.kind === 'Deployment') {
        expect(pod.spec.serviceAccountName, where).toBe('pb-pulseboard');
        expect(pod.metadata.annotations, where).toEqual({ 'prometheus.io/scrape': 'false' });
        // Your own spread, with the service's selector filled in.
        expect(pod.spec.topologySpreadConstraints, where).toEqual([
          {
            maxSkew: 1,
            topologyKey: 'topology.kubernetes.io/zone',
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: workload.spec.selector.matchLabels },
          },
        ]);
      } else expect(pod.metadata.annotations, where).toBeUndefined();
      expect(pod.spec.automountServiceAccountToken, where).toBe(false);
      expect(pod.metadata.labels.team, where).toBe('observability');
      expect(pod.spec.nodeSelector, where).toEqual({ 'kubernetes.io/arch': 'arm64' });
      expect(pod.spec.tolerations, where).toEqual([{ key: 'dedicated', operator: 'Equal', value: 'pulseboard', effect: 'NoSchedule' }]);
      expect(pod.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0], where).toEqual({
        key: 'pool',
        operator: 'In',
        values: ['apps'],
      });
    }
    // A pod label never takes a selector label's place (the Deployment would select nothing).
    const relabelled = deploymentOf(render([], { 'podLabels.app\\.kubernetes\\.io/component': 'other' }), 'gateway');
    expect(relabelled.spec.template.metadata.labels['app.kubernetes.io/component']).toBe('gateway');
    // An existing account by name, or the namespace's default.
    expect(
      deploymentOf(render([], { 'serviceAccount.name': 'pulseboard-irsa' }, { 'serviceAccount.create': 'false' }), 'store').spec.template.spec
        .serviceAccountName,
    ).toBe('pulseboard-irsa');
    expect(render([], {}, { 'serviceAccount.create': 'false' }).filter((o) => o.kind === 'ServiceAccount')).toEqual([]);

    // The Gateway API instead: HTTPRoutes with the same paths, attached to the named Gateway.
    const httpRoutes = render(
      [],
      { 'httpRoute.parentRefs[0].name': 'public', 'httpRoute.parentRefs[0].namespace': 'gateway-system', 'httpRoute.hostnames[0]': 'pulseboard.example.com' },
      { 'httpRoute.enabled': 'true' },
    ).filter((o) => o.kind === 'HTTPRoute');
    expect(httpRoutes.map((r) => [r.apiVersion, r.metadata.name])).toEqual([
      ['gateway.networking.k8s.io/v1', 'pb-pulseboard-gateway'],
      ['gateway.networking.k8s.io/v1', 'pb-pulseboard-broadcast'],
    ]);
    for (const route of httpRoutes) {
      expect(route.spec.parentRefs).toEqual([{ name: 'public', namespace: 'gateway-system' }]);
      expect(route.spec.hostnames).toEqual(['pulseboard.example.com']);
      const [rule] = route.spec.rules as { matches: { path: { type: string; value: string } }[]; backendRefs: { name: string; port: number }[] }[];
      expect(rule!.backendRefs).toEqual([{ name: route.metadata.name, port: services.get(route.metadata.name)!.spec.ports[0].port }]);
      for (const match of rule!.matches) expect(['Exact', 'PathPrefix']).toContain(match.path.type);
    }
    expect(httpRoutes[1]!.spec.rules[0].matches.map((m: { path: { value: string } }) => m.path.value)).toEqual(['/ws', '/', '/assets', '/favicon.ico']);
    // Without a Gateway to attach to, no routes.
    expect(helm(['template', 'pb', CHART, '--set', 'httpRoute.enabled=true']).output).toMatch(/parentRefs/);
  });

  it('validates every rendered object against the Kubernetes 1.30 API, and the CRDs of prometheus-operator and KEDA against their schemas', async () => {
    // The 1.30 document is what the validator reads: every generated file of it says release-1.30.
    expect([...openApiVersions()]).toEqual([VERSION_MARKER]);
    for (const object of [...rendered.default, ...rendered.production, ...rendered.exposed]) {
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
    expect(k8s130Errors({ ...rendered.default.find((o) => o.kind === 'HorizontalPodAutoscaler')!, apiVersion: 'autoscaling/v2beta2' })).toEqual([
      'autoscaling/v2beta2 HorizontalPodAutoscaler: not served by Kubernetes 1.30',
    ]);
    expect(k8s130Errors(changed((pod) => (pod.containers[0].ports[0].containerPort = 'http'))).join('; ')).toMatch(/containerPort: expected a number/);
    expect(k8s130Errors(changed((pod) => delete pod.containers[0].name)).join('; ')).toMatch(/containers\[0\]\.name: required by V1Container/);
    const broken = changed((pod) => (pod.containers[0].ports[0].containerPort = 'http'));
    expect(() => new Deployment(broken).validate()).toThrow(/containerPort/);
  });

  it('meets the policy: limits, not root, probes, a release tag; and the policy catches each breach', () => {
    for (const object of [...rendered.default, ...rendered.production, ...rendered.exposed])
      expect(policyViolations(object), `${object.kind}/${object.metadata.name}`).toEqual([]);
    const base = deployments(rendered.default)[0]!;
    const breach = (change: (container: any, pod: any) => void) => {
      const copy = structuredClone(base);
      change(copy.spec.template.spec.containers[0], copy.spec.template.spec);
      return policyViolations(copy).join('; ');
    };
    expect(breach((c) => delete c.resources.limits)).toMatch(/no cpu and memory limits/);
    expect(breach((c, pod) => ((pod.securityContext.runAsUser = 0), delete c.securityContext.runAsNonRoot, delete pod.securityContext.runAsNonRoot))).toMatch(
      /may run as root/,
    );
    expect(breach((c) => delete c.readinessProbe)).toMatch(/no readinessProbe/);
    expect(breach((c) => (c.image = 'registry.example.com/pulseboard:latest'))).toMatch(/no release tag/);
  });

  it('refuses wrong values at install: latest, a missing secret, too short a token, KEDA above the partitions, a chart-owned variable, a drain bound past the grace period', () => {
    const template = (...args: string[]) => helm(['template', 'pb', CHART, ...args]);
    expect(template('--set', 'image.tag=latest').output).toMatch(/image\/tag/);
    expect(template('--set', 'secrets.existingSecret=').output).toMatch(/secrets/);
    expect(
      template(
        '--set',
        'secrets.existingSecret=',
        '--set',
        'secrets.databaseUrl=postgres://x',
        '--set',
        'secrets.redisUrl=redis://x',
        '--set',
        'secrets.adminToken=short',
        '--set',
        `secrets.secretsKey=${generateSecret()}`,
      ).output,
    ).toMatch(/adminToken/);
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
  const secret = {
    DATABASE_URL: 'postgres://pulseboard@pg:5432/pulseboard',
    REDIS_URL: 'redis://redis:6379',
    ADMIN_TOKEN: generateSecret(),
    SECRETS_KEY: generateSecret(),
    INTERNAL_PROXY_SECRET: generateSecret(),
  };

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
    // Set by the chart itself: from its own values (ports, brokers) or from the Secret (optional keys included),
    // and the Kafka TLS/SASL variables, set from kafka.tls and kafka.sasl (the schema refuses them in config and env).
    const schema = JSON.parse(readFileSync(`${CHART}/values.schema.json`, 'utf8')) as {
      properties: { config: { propertyNames: { not: { enum: string[] } } } };
    };
    const kafkaOwned = schema.properties.config.propertyNames.not.enum.filter((name) => name.startsWith('KAFKA_SSL') || name.startsWith('KAFKA_SASL_'));
    expect(kafkaOwned).toContain('KAFKA_SASL_PASSWORD');
    const chartOwned = new Set([
      ...(deploymentOf(render(), service).spec.template.spec.containers[0].env as { name: string }[]).map((e) => e.name),
      ...kafkaOwned,
    ]);
    const settable = Object.keys(properties).filter((name) => !chartOwned.has(name));
    // Each one set through <service>.env reaches the container.
    const objects = render([], Object.fromEntries(settable.map((name) => [`${key}.env.${name}`, `v-${name}`])));
    const env = containerEnv(deploymentOf(objects, service), secret);
    for (const name of settable) expect(env[name], name).toBe(`v-${name}`);
    expect(settable.length).toBeGreaterThan(0);
  });
});

describe('client addresses behind the ingress', () => {
  it('gives the gateway and broadcast TRUST_PROXY from trustProxy (empty by default: no proxy believed) and INTERNAL_PROXY_SECRET from the Secret', () => {
    const secret = {
      DATABASE_URL: 'postgres://x',
      REDIS_URL: 'redis://x',
      ADMIN_TOKEN: generateSecret(),
      SECRETS_KEY: generateSecret(),
      INTERNAL_PROXY_SECRET: generateSecret(),
    };
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

describe('the rendered gateway runs', () => {
  let child: ReturnType<typeof spawn> | undefined;
  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it('starts the real gateway with the rendered command, arguments and environment against the local stack, and it answers /ingest', async () => {
    const local = serviceTestEnv();
    // Topics of this test, set the way an operator would: through values.
    const topics = Object.fromEntries(
      Object.entries(local)
        .filter(([name]) => name.startsWith('TOPIC_'))
        .map(([name, value]) => [`config.${name}`, value]),
    );
    const objects = render([], {
      'kafka.brokers': local.KAFKA_BROKERS!,
      ...topics,
      'gateway.env.WEBHOOK_OUTCOME_TIMEOUT_MS': '0',
      'gateway.env.GLOBAL_HOURLY_LIMIT': '100000000',
      'gateway.env.DEFAULT_ACCOUNT_HOURLY_LIMIT': '100000000',
    });
    const container = deploymentOf(objects, 'gateway').spec.template.spec.containers[0];
    const env = containerEnv(deploymentOf(objects, 'gateway'), {
      DATABASE_URL: local.DATABASE_URL!,
      REDIS_URL: local.REDIS_URL!,
      ADMIN_TOKEN: local.ADMIN_TOKEN!,
      SECRETS_KEY: local.SECRETS_KEY!,
      INTERNAL_PROXY_SECRET: local.INTERNAL_PROXY_SECRET!,
    });
    // The one change: the container's port 8080 may be taken on this machine.
    const port = await freePort();
    env.GATEWAY_PORT = String(port);
    // The image's entrypoint is node (Dockerfile), run from the image's /app: here, the repository's compiled build.
    child = spawn(process.execPath, [...(container.command ?? []), ...container.args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const logs: string[] = [];
    child.stdout!.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    const url = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await request(`${url}/readyz`).catch(() => ({ status: 0 }))).status === 200, {
      what: 'the rendered gateway ready',
      timeoutMs: 45_000,
    }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${logs.join('').slice(-3000)}`);
    });
    const project = await provisionProject(url, env.ADMIN_TOKEN!);
    const answer = await request(`${url}/ingest`, { token: project.apiKey, body: envelope(project.projectKey) });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ status: 'accepted', event_id: expect.any(Number) });

    // What NOTES.txt prints after an install, from the admin token in the Secret to a first event, works as printed.
    const install = helm(['install', 'pb', CHART, '--dry-run=client', '--namespace', 'pulseboard']);
    expect(install.code, install.output).toBe(0);
    const notes = install.output.slice(install.output.indexOf('NOTES:'));
    expect(notes).toMatch(/kubectl --namespace pulseboard port-forward svc\/pb-pulseboard-gateway 8080:8080/);
    const commands = notes
      .slice(notes.indexOf('\n2. '))
      .split('\n')
      .filter((line) => line.startsWith('    '))
      .map((line) => line.trim());
    expect(commands).toHaveLength(5);
    // kubectl stands for the cluster: it answers the Secret's key, base64 as the API does, when asked for it exactly.
    const kubectl = `kubectl() { [[ "$*" == "--namespace pulseboard get secret pulseboard-secrets -o jsonpath={.data.ADMIN_TOKEN}" ]] || { echo "unexpected: kubectl $*" >&2; return 1; }; printf %s "$ADMIN_TOKEN_B64"; }`;
    const script = [
      kubectl,
      ...commands,
      'echo',
      'curl -sS -o /dev/null -w "user token: %{http_code}" "$PULSEBOARD_URL/api/v1/projects" -H "Authorization: Bearer $USER_TOKEN"',
    ].join('\n');
    const run = spawnSync('bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', script], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', PULSEBOARD_URL: url, ADMIN_TOKEN_B64: Buffer.from(env.ADMIN_TOKEN!).toString('base64') },
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout.split('\n')[0]!)).toMatchObject({ status: 'accepted', event_id: expect.any(Number) });
    expect(run.stdout).toMatch(/user token: 200$/);
  });
});
