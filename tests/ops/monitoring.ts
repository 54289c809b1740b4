import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { K8sObject } from './helm.ts';
import { satisfies, selectors, type Selector } from './promql.ts';

/**
 * What the dashboard and the alerts read, what the services define, and which series a
 * prometheus-operator ServiceMonitor makes of the chart's Services: enough to say whether
 * every query selects series that exist once Prometheus scrapes the chart.
 */

/** The jobs Pulseboard's series carry: the services' names, on Kubernetes (the ServiceMonitor's jobLabel) and locally (live-prometheus's static jobs). */
export const SERVICE_JOBS = ['gateway', 'broadcast', 'store', 'rule-engine', 'notification'] as const;
export type ServiceName = (typeof SERVICE_JOBS)[number];

const repo = new URL('../../', import.meta.url).pathname;

/** Every PromQL expression of the shipped Grafana dashboard and alert rules, with where it comes from. */
export function shippedExpressions(rules?: { groups: { rules: { alert?: string; record?: string; expr: string }[] }[] }): { where: string; expr: string }[] {
  const dashboard = JSON.parse(readFileSync(`${repo}deploy/observability/grafana-dashboard.json`, 'utf8')) as {
    panels: { title: string; targets?: { expr: string }[] }[];
  };
  const alerts = rules ?? (parse(readFileSync(`${repo}deploy/observability/alerts.yaml`, 'utf8')) as NonNullable<typeof rules>);
  return [
    ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ where: `panel "${p.title}"`, expr: t.expr }))),
    ...alerts.groups.flatMap((g) => g.rules.map((r) => ({ where: `alert ${r.alert ?? r.record}`, expr: r.expr }))),
  ];
}

export interface MetricDefinition {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary';
  labelNames: string[];
  /** The service whose own source defines it; undefined: a shared package's, registered by the services that use it. */
  service: ServiceName | undefined;
  file: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === 'node_modules' || entry === 'dist' || entry === 'generated' ? [] : sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** The metrics the project defines (prom-client constructors in services/*\/src and packages/*\/src, tests aside). */
export function definedMetrics(): MetricDefinition[] {
  const out: MetricDefinition[] = [];
  const roots = [
    ...SERVICE_JOBS.map((service) => ({ dir: `${repo}services/${service}/src`, service: service })),
    ...readdirSync(`${repo}packages`).map((p) => ({ dir: `${repo}packages/${p}/src`, service: undefined })),
  ];
  for (const { dir, service } of roots) {
    let files: string[];
    try {
      files = sourceFiles(dir);
    } catch {
      continue;
    }
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/new (Counter|Gauge|Histogram|Summary)(?:<[^>]*>)?\(\{/g)) {
        // The options object: up to its closing brace (balanced).
        let depth = 0;
        let end = m.index + m[0].length - 1;
        for (; end < text.length; end++) {
          if (text[end] === '{') depth++;
          if (text[end] === '}' && --depth === 0) break;
        }
        const options = text.slice(m.index, end);
        const name = /\bname:\s*'([^']+)'/.exec(options)?.[1];
        if (name === undefined) throw new Error(`${file}: a ${m[1]} whose name is not a literal`);
        const labels = /\blabelNames:\s*\[([^\]]*)\]/.exec(options)?.[1] ?? '';
        out.push({
          name,
          type: m[1]!.toLowerCase() as MetricDefinition['type'],
          labelNames: [...labels.matchAll(/'([^']+)'/g)].map((l) => l[1]!),
          service,
          file: file.slice(repo.length),
        });
      }
    }
  }
  return out;
}

/** The series names a definition exposes (a histogram's _bucket, _sum and _count) and the extra labels each carries. */
export function exposedSeries(d: MetricDefinition): { series: string; labels: string[] }[] {
  if (d.type === 'histogram')
    return [
      { series: `${d.name}_bucket`, labels: [...d.labelNames, 'le'] },
      { series: `${d.name}_sum`, labels: d.labelNames },
      { series: `${d.name}_count`, labels: d.labelNames },
    ];
  if (d.type === 'summary')
    return [
      { series: d.name, labels: [...d.labelNames, 'quantile'] },
      { series: `${d.name}_sum`, labels: d.labelNames },
      { series: `${d.name}_count`, labels: d.labelNames },
    ];
  return [{ series: d.name, labels: d.labelNames }];
}

/** A scrape target as prometheus-operator makes it of a ServiceMonitor endpoint and a pod behind a Service. */
export interface Target {
  labels: Record<string, string>;
  /** The service the pod runs (from its container's entry point). */
  runs: ServiceName;
}

type Relabel = { action?: string; sourceLabels?: string[]; separator?: string; targetLabel?: string; regex?: string; replacement?: string };

function relabel(labels: Record<string, string>, rules: Relabel[]): Record<string, string> | undefined {
  let current = { ...labels };
  for (const r of rules) {
    const action = (r.action ?? 'replace').toLowerCase();
    const regex = new RegExp(`^(?:${r.regex ?? '(.*)'})$`);
    const source = (r.sourceLabels ?? []).map((l) => current[l] ?? '').join(r.separator ?? ';');
    if (action === 'replace') {
      const m = regex.exec(source);
      if (m === null || r.targetLabel === undefined) continue;
      const value = (r.replacement ?? '$1').replace(/\$\{?(\d+)\}?/g, (_, n: string) => m[Number(n)] ?? '');
      if (value === '') delete current[r.targetLabel];
      else current[r.targetLabel] = value;
    } else if (action === 'keep') {
      if (!regex.test(source)) return undefined;
    } else if (action === 'drop') {
      if (regex.test(source)) return undefined;
    } else if (action === 'labeldrop') {
      current = Object.fromEntries(Object.entries(current).filter(([k]) => !regex.test(k)));
    } else if (action === 'labelkeep') {
      current = Object.fromEntries(Object.entries(current).filter(([k]) => regex.test(k)));
    } else throw new Error(`relabel action ${action} is not modelled here`);
  }
  return current;
}

const matches = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  selector !== undefined && Object.entries(selector).every(([k, v]) => labels?.[k] === v);

/**
 * The targets (and the labels of their series) the rendered ServiceMonitors make, the way
 * prometheus-operator does: each selected Service with the endpoint's port, each pod of a
 * Deployment the Service selects. Labels: job (the Service's `jobLabel` label, else its name),
 * namespace, service, pod, container, endpoint, instance, the Service's `targetLabels` and
 * the pod's `podTargetLabels`, then the endpoint's relabelings.
 */
export function serviceMonitorTargets(objects: K8sObject[], namespace = 'pulseboard'): Target[] {
  const services = objects.filter((o) => o.kind === 'Service');
  const deployments = objects.filter((o) => o.kind === 'Deployment');
  const targets: Target[] = [];
  for (const monitor of objects.filter((o) => o.kind === 'ServiceMonitor')) {
    const spec = monitor.spec as {
      jobLabel?: string;
      selector: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] };
      targetLabels?: string[];
      podTargetLabels?: string[];
      endpoints: ({ port?: string; targetPort?: unknown; relabelings?: Relabel[]; metricRelabelings?: unknown[] } & Record<string, unknown>)[];
    };
    if (spec.selector.matchExpressions !== undefined) throw new Error('ServiceMonitor matchExpressions are not modelled here');
    for (const endpoint of spec.endpoints) {
      if (endpoint.port === undefined) throw new Error('a ServiceMonitor endpoint without a port name is not modelled here');
      // metricRelabelings could rename or drop series: the checks below would no longer hold.
      if (endpoint.metricRelabelings !== undefined) throw new Error('metricRelabelings are not modelled here');
      for (const service of services.filter((s) => matches(spec.selector.matchLabels ?? {}, s.metadata.labels))) {
        const port = (service.spec.ports as { name?: string; port: number; targetPort?: string | number }[]).find((p) => p.name === endpoint.port);
        if (port === undefined) continue;
        for (const deployment of deployments.filter((d) => matches(service.spec.selector, d.spec.template.metadata.labels))) {
          const pod = deployment.spec.template;
          for (const container of pod.spec.containers as { name: string; args?: string[]; ports?: { name?: string; containerPort: number }[] }[]) {
            const containerPort = container.ports?.find((p) => p.name === port.targetPort || p.containerPort === port.targetPort);
            if (containerPort === undefined) continue;
            const runs = /services\/([a-z-]+)\/dist\/main\.js/.exec((container.args ?? []).join(' '))?.[1] as ServiceName | undefined;
            if (runs === undefined || !SERVICE_JOBS.includes(runs)) throw new Error(`${deployment.metadata.name}: which service it runs is not known`);
            const serviceLabels = service.metadata.labels ?? {};
            const podLabels = (pod.metadata.labels ?? {}) as Record<string, string>;
            const labels: Record<string, string> = {
              job: (spec.jobLabel !== undefined ? serviceLabels[spec.jobLabel] : undefined) ?? service.metadata.name,
              namespace,
              service: service.metadata.name,
              pod: `${deployment.metadata.name}-5d8f7c9b4-x2x9q`,
              container: container.name,
              endpoint: endpoint.port,
              instance: `10.0.0.1:${containerPort.containerPort}`,
            };
            for (const l of spec.targetLabels ?? []) if (serviceLabels[l] !== undefined) labels[l.replace(/[^a-zA-Z0-9_]/g, '_')] = serviceLabels[l];
            for (const l of spec.podTargetLabels ?? []) if (podLabels[l] !== undefined) labels[l.replace(/[^a-zA-Z0-9_]/g, '_')] = podLabels[l];
            const relabelled = relabel(labels, endpoint.relabelings ?? []);
            if (relabelled !== undefined) targets.push({ labels: relabelled, runs });
          }
        }
      }
    }
  }
  return targets;
}

/** prom-client's default process_* and nodejs_* metrics (every service registers them). */
const STANDARD = /^(process_|nodejs_)/;

/**
 * Why a selector of `expr` would select nothing once these targets are scraped: its target
 * labels (job, namespace, service, ...) match no target; its metric is not one a service
 * running behind the matching targets defines; or it filters on a label the metric does not
 * have. Empty: every selector can select series.
 */
export function unsatisfiable(expr: string, targets: Target[], defined: MetricDefinition[]): string[] {
  const targetLabels = new Set(targets.flatMap((t) => Object.keys(t.labels)));
  const problems: string[] = [];
  for (const selector of selectors(expr)) {
    const show = describe(selector);
    const onTarget = selector.matchers.filter((m) => targetLabels.has(m.label));
    const onSeries = selector.matchers.filter((m) => !targetLabels.has(m.label));
    const candidates = targets.filter((t) => onTarget.every((m) => satisfies(m, t.labels[m.label])));
    if (candidates.length === 0) {
      problems.push(
        `${show}: no target has ${onTarget.map((m) => `${m.label}${m.op}"${m.value}"`).join(', ')} (targets' jobs: ${[...new Set(targets.map((t) => t.labels.job))].join(', ')})`,
      );
      continue;
    }
    if (selector.metric === undefined) {
      problems.push(`${show}: names no metric`);
      continue;
    }
    if (selector.metric === 'up') {
      if (onSeries.length > 0) problems.push(`${show}: up has only its target's labels`);
      continue;
    }
    if (STANDARD.test(selector.metric)) continue;
    const exposed = defined.flatMap((d) => exposedSeries(d).map((s) => ({ ...s, definition: d }))).filter((s) => s.series === selector.metric);
    if (exposed.length === 0) {
      problems.push(`${show}: no service defines ${selector.metric}`);
      continue;
    }
    const running = new Set(candidates.map((t) => t.runs));
    const there = exposed.filter((s) => s.definition.service === undefined || running.has(s.definition.service));
    if (there.length === 0) {
      problems.push(
        `${show}: ${selector.metric} is ${exposed.map((s) => s.definition.service).join('/')}'s, but the matchers select ${[...running].join(', ')}`,
      );
      continue;
    }
    for (const m of onSeries) {
      if (!there.some((s) => s.labels.includes(m.label))) problems.push(`${show}: ${selector.metric} has no label ${m.label}`);
    }
  }
  return problems;
}

function describe(s: Selector): string {
  return `${s.metric ?? ''}{${s.matchers.map((m) => `${m.label}${m.op}"${m.value}"`).join(',')}}`;
}
