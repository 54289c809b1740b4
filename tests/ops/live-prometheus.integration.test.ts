import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { envelope, freePort, request, waitFor, type ServiceProcess } from '@pulseboard/test-kit';
import { startPipeline } from '../e2e/harness.ts';
import { httpReceiver } from '../e2e/receivers.ts';
import { root } from './helm.ts';
import { SERVICE_JOBS } from './monitoring.ts';
import { selectors } from './promql.ts';

const PROMETHEUS = process.env.PROMETHEUS ?? 'prometheus';
const dashboard = JSON.parse(readFileSync(`${root}deploy/observability/grafana-dashboard.json`, 'utf8')) as {
  panels: { type: string; title: string; targets?: { expr: string }[] }[];
};
const rules = parse(readFileSync(`${root}deploy/observability/alerts.yaml`, 'utf8')) as { groups: { rules: { alert: string; expr: string }[] }[] };

/**
 * A real Prometheus scrapes the five services of a running pipeline while a short load runs:
 * every expression of the Grafana dashboard returns data, every metric the alert rules read
 * exists, and stopping the rule engine makes PulseboardNoTileEvaluation fire.
 */
describe('deploy/observability against a real Prometheus scraping the local stack', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let engine: ServiceProcess;
  let receiver: Awaited<ReturnType<typeof httpReceiver>>;
  let prometheus: ChildProcess | undefined;
  let prometheusUrl = '';
  let loading = true;
  let load: Promise<void> | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'pulseboard-prometheus-'));

  const query = async (expr: string): Promise<{ status: string; data: { result: unknown[] }; error?: string }> =>
    (await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expr)}`)).json() as never;

  beforeAll(async () => {
    receiver = await httpReceiver();
    pipeline = await startPipeline({ NOTIFY_ALLOW_TARGETS: receiver.target });
    const targets: Record<string, string> = { gateway: pipeline.url.replace('http://', '') };
    targets.broadcast = (await pipeline.startBroadcast()).url.replace('http://', '');
    const [store, ruleEngine, notification] = [await freePort(), await freePort(), await freePort()];
    await pipeline.startStore({ STORE_HTTP_PORT: String(store) });
    engine = await pipeline.startRuleEngine({ RULE_ENGINE_HTTP_PORT: String(ruleEngine) });
    await pipeline.startNotification({ NOTIFICATION_HTTP_PORT: String(notification) });
    Object.assign(targets, { store: `127.0.0.1:${store}`, 'rule-engine': `127.0.0.1:${ruleEngine}`, notification: `127.0.0.1:${notification}` });

    // The rules as shipped, except that they fire at once and look back 10 s: the test cannot wait minutes.
    const quick = readFileSync(`${root}deploy/observability/alerts.yaml`, 'utf8')
      .replace(/for: \d+m/g, 'for: 0s')
      .replace(/\[\d+m\]/g, '[10s]');
    writeFileSync(join(dir, 'alerts.yaml'), quick);
    // The jobs the ServiceMonitor's jobLabel gives on Kubernetes (chart-monitoring.integration.test.ts): the services' names.
    expect(Object.keys(targets).sort()).toEqual([...SERVICE_JOBS].sort());
    const scrapes = Object.entries(targets)
      .map(([job, target]) => `  - job_name: ${job}\n    static_configs: [{ targets: ['${target}'] }]`)
      .join('\n');
    writeFileSync(
      join(dir, 'prometheus.yml'),
      `global: { scrape_interval: 1s, evaluation_interval: 1s }\nrule_files: [alerts.yaml]\nscrape_configs:\n${scrapes}\n`,
    );
    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    const logs: string[] = [];
    prometheus = spawn(
      PROMETHEUS,
      [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    prometheus.on('error', (error) => logs.push(`${PROMETHEUS} could not run (bash deploy/prometheus.sh installs it): ${error.message}`));
    prometheus.stderr!.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    await waitFor(async () => (await fetch(`${prometheusUrl}/-/ready`).catch(() => undefined))?.status === 200, {
      what: 'prometheus ready',
      timeoutMs: 30_000,
    }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${logs.join('').slice(-2000)}`);
    });

    // A project whose tile goes up and down with each event and notifies a webhook: every stage works.
    const project = await pipeline.provision();
    const hook = await request(`${pipeline.url}/api/v1/notifications`, {
      token: project.userToken,
      body: { name: 'hook', type: 'webhook', config: { url: `${receiver.url}/hook` } },
    });
    expect(hook.status).toBe(201);
    const tile = await request(`${pipeline.url}/api/v1/tiles`, {
      token: project.apiKey,
      body: { name: 'up', kind: 'metric', rule: { evaluation: { kind: 'up_down', attribute: 'up' } }, notification_service_ids: [hook.body.data.id] },
    });
    expect(tile.status).toBe(201);
    // A project over its burst limit: the refusals PulseboardEventsRefused reads.
    const limited = await pipeline.provision({ burstLimit: 1 });
    const refused = await Promise.all([0, 1, 2].map(() => request(`${pipeline.url}/ingest`, { token: limited.apiKey, body: envelope(limited.projectKey) })));
    expect(refused.map((r) => r.status).sort()).toEqual([201, 429, 429]);
    load = (async () => {
      for (let i = 0; loading; i++) {
        await request(`${pipeline.url}/ingest`, { token: project.apiKey, body: envelope(project.projectKey, { attributes: { up: i % 2 === 0 } }) }).catch(
          () => undefined,
        );
        await request(`${pipeline.url}/api/v1/events?limit=1`, { token: project.apiKey }).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
  }, 180_000);
  afterAll(async () => {
    loading = false;
    await load;
    prometheus?.kill('SIGTERM');
    await pipeline?.stop();
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every panel expression of the Grafana dashboard returns data', async () => {
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ title: p.title, expr: t.expr })));
    expect(exprs.length).toBeGreaterThan(20);
    let empty: string[] = [];
    await waitFor(
      async () => {
        empty = [];
        for (const { title, expr } of exprs) {
          const answer = await query(expr);
          expect(answer.status, `${title}: ${answer.error}`).toBe('success');
          if (answer.data.result.length === 0) empty.push(`${title}: ${expr}`);
        }
        return empty.length === 0;
      },
      { what: 'every panel to have data', timeoutMs: 90_000, intervalMs: 2000 },
    ).catch(() => {
      throw new Error(`panels without data:\n${empty.join('\n')}`);
    });
  }, 120_000);

  it('every alert expression evaluates, and every metric it reads is scraped', async () => {
    const alerts = rules.groups.flatMap((g) => g.rules);
    expect(alerts).toHaveLength(9);
    for (const { alert, expr } of alerts) {
      const answer = await query(expr);
      expect(answer.status, `${alert}: ${answer.error}`).toBe('success');
      const metrics = [...new Set(selectors(expr).map((s) => s.metric!))];
      expect(metrics.length, alert).toBeGreaterThan(0);
      for (const metric of metrics) expect((await query(`count({__name__="${metric}"})`)).data.result, `${alert} reads ${metric}`).toHaveLength(1);
    }
  });

  it('stopping the rule engine while events arrive fires PulseboardNoTileEvaluation, and PulseboardServiceDown for its job alone', async () => {
    const alerts = async () =>
      (
        (await (await fetch(`${prometheusUrl}/api/v1/alerts`)).json()) as { data: { alerts: { labels: Record<string, string>; state: string }[] } }
      ).data.alerts.filter((a) => a.state === 'firing');
    const firing = async () => (await alerts()).some((a) => a.labels.alertname === 'PulseboardNoTileEvaluation');
    const down = async () => (await alerts()).filter((a) => a.labels.alertname === 'PulseboardServiceDown').map((a) => a.labels.job);
    // Not firing while the engine works (a busy machine may pause it briefly: wait for that to pass).
    await waitFor(async () => !(await firing()), { what: 'PulseboardNoTileEvaluation not firing while the engine runs', timeoutMs: 30_000, intervalMs: 1000 });
    expect(await down()).toEqual([]);
    await engine.kill('SIGTERM');
    await waitFor(firing, { what: 'PulseboardNoTileEvaluation firing', timeoutMs: 60_000, intervalMs: 1000 });
    await waitFor(async () => (await down()).includes('rule-engine'), {
      what: 'PulseboardServiceDown firing for the rule engine',
      timeoutMs: 30_000,
      intervalMs: 1000,
    });
    expect(await down()).toEqual(['rule-engine']);
  }, 90_000);
});
