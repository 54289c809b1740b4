import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHART, render, root } from './helm.ts';
import { definedMetrics, SERVICE_JOBS, serviceMonitorTargets, shippedExpressions, unsatisfiable } from './monitoring.ts';
import { selectors } from './promql.ts';

const PRODUCTION = `${CHART}/values-production.yaml`;

/**
 * The chart's monitoring agrees with the shipped dashboard and alerts: rendered with the
 * production values, the ServiceMonitor's targets carry the labels every query and alert
 * selects on (job = the service's name), and every metric they read is one the services
 * define, on a target that runs the service defining it.
 */
describe('the chart monitors itself: ServiceMonitor, dashboard and alerts agree', () => {
  const objects = render([PRODUCTION]);
  const targets = serviceMonitorTargets(objects);
  const defined = definedMetrics();
  const rule = objects.find((o) => o.kind === 'PrometheusRule')!;
  const expressions = shippedExpressions(rule.spec);

  it('makes one target per pod of each of the five services, job = the service, as the local Prometheus names its jobs', () => {
    expect([...new Set(targets.map((t) => t.labels.job))].sort()).toEqual([...SERVICE_JOBS].sort());
    for (const t of targets) expect(t.labels.job, t.labels.service).toBe(t.runs);
    // The headless metrics Services are what it scrapes, not the public ones (no double scrape of the gateway).
    expect(targets.map((t) => t.labels.service).sort()).toEqual(SERVICE_JOBS.map((s) => `pb-pulseboard-${s}-metrics`).sort());
  });

  it('every query of the Grafana dashboard and every alert selects series the ServiceMonitor produces, of metrics the services define', () => {
    expect(expressions.filter((e) => e.where.startsWith('panel')).length).toBeGreaterThan(20);
    expect(expressions.filter((e) => e.where.startsWith('alert')).map((e) => e.where)).toEqual(
      expect.arrayContaining(['alert PulseboardServiceDown', 'alert PulseboardConsumerLagGrowing', 'alert PulseboardEventsRefused']),
    );
    const problems = expressions.flatMap(({ where, expr }) => unsatisfiable(expr, targets, defined).map((p) => `${where}: ${p}`));
    expect(problems).toEqual([]);
    // The check has something to hold: the queries filter on job, and read the project's own metrics.
    const all = expressions.flatMap((e) => selectors(e.expr));
    expect(all.filter((s) => s.matchers.some((m) => m.label === 'job')).length).toBeGreaterThan(3);
    expect(all.filter((s) => s.metric?.startsWith('pulseboard_')).length).toBeGreaterThan(25);
  });

  it('would catch the mismatch: without jobLabel, job is the Service name and the panels on job="gateway" select nothing', () => {
    const withoutJobLabel = objects.map((o) => (o.kind === 'ServiceMonitor' ? { ...o, spec: { ...o.spec, jobLabel: undefined } } : o));
    const before = serviceMonitorTargets(withoutJobLabel);
    expect(before.map((t) => t.labels.job)).toContain('pb-pulseboard-gateway-metrics');
    const problems = expressions.flatMap(({ where, expr }) => unsatisfiable(expr, before, defined).map((p) => `${where}: ${p}`));
    expect(problems.join('\n')).toMatch(
      /panel "Requests \/s by route and status": pulseboard_http_request_duration_seconds_count\{job="gateway"\}: no target has job="gateway"/,
    );
    expect(problems.join('\n')).toMatch(/alert PulseboardServiceDown: up\{job=~"gateway\|broadcast\|store\|rule-engine\|notification"\}: no target/);
    // A metric no service defines, a service's metric on another's job, a label a metric lacks.
    expect(unsatisfiable('rate(pulseboard_gateway_no_such_total[1m])', targets, defined)).toEqual([
      expect.stringMatching(/no service defines pulseboard_gateway_no_such_total/),
    ]);
    expect(unsatisfiable('pulseboard_store_events_stored_total{job="gateway"}', targets, defined)).toEqual([
      expect.stringMatching(/is store's, but the matchers select gateway/),
    ]);
    expect(unsatisfiable('pulseboard_gateway_requests_rejected_total{project_key="web"}', targets, defined)).toEqual([
      expect.stringMatching(/has no label project_key/),
    ]);
  });

  it('one metric prefix: every metric the project defines starts with pulseboard_', () => {
    expect(defined.length).toBeGreaterThan(30);
    expect(defined.filter((d) => !d.name.startsWith('pulseboard_')).map((d) => `${d.file}: ${d.name}`)).toEqual([]);
    // Every service defines metrics of its own under its own name.
    for (const service of SERVICE_JOBS)
      expect(
        defined.some((d) => d.service === service && d.name.startsWith(`pulseboard_${service.replace('-', '_')}_`)),
        service,
      ).toBe(true);
  });

  it("every alert has a runbook_url whose section exists in docs/operations.md's runbooks", () => {
    const doc = readFileSync(`${root}docs/operations.md`, 'utf8');
    const runbooks = doc.slice(doc.indexOf('\n## Runbooks'));
    expect(runbooks.length).toBeGreaterThan(100);
    const anchors = new Set([...runbooks.matchAll(/^### (.+)$/gm)].map((m) => githubAnchor(m[1]!)));
    const rules = (rule.spec.groups as { rules: { alert: string; annotations: Record<string, string> }[] }[]).flatMap((g) => g.rules);
    expect(rules.length).toBe(9);
    for (const r of rules) {
      const url = r.annotations.runbook_url;
      expect(url, r.alert).toBe(`https://github.com/pulseboard/pulseboard/blob/main/docs/operations.md#${r.alert.toLowerCase()}`);
      expect(anchors, r.alert).toContain(url!.split('#')[1]);
    }
    // runbookBaseUrl points them elsewhere.
    const moved = render([PRODUCTION], { 'prometheusRule.runbookBaseUrl': 'https://wiki.example.com/pulseboard/runbooks' }).find(
      (o) => o.kind === 'PrometheusRule',
    )!;
    expect(moved.spec.groups[0].rules.map((r: { annotations: { runbook_url: string } }) => r.annotations.runbook_url)).toContain(
      'https://wiki.example.com/pulseboard/runbooks#pulseboardservicedown',
    );
  });
});

/** GitHub's heading anchor: lower case, punctuation other than - and _ dropped, spaces to -. */
function githubAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}
