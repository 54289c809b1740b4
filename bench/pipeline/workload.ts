/**
 * What bench:pipeline sends: projects with 20 tiles of the four evaluation
 * kinds (a webhook notification on 10% of them), and events that each concern
 * one tile of their project.
 */
import { provisionProject, request } from '@pulseboard/test-kit';

export const TILES_PER_PROJECT = 20;
/** Tiles that notify: 2 of 20 (10%), the threshold and the up/down tile of the first thing watched. */
const NOTIFYING = new Set([0, 3]);

export interface Project {
  projectKey: string;
  apiKey: string;
  userToken: string;
}

/** A quarter of each kind, each tile watching its own metric, error source, service or check (as bench:rules). */
export function tileRule(i: number): unknown {
  const k = Math.floor(i / 4);
  switch (i % 4) {
    case 0:
      return { filter: { type: 'metric', name: `m${k}` }, evaluation: { kind: 'threshold', attribute: 'value', warning: 70, critical: 90 } };
    case 1:
      return { filter: { type: 'error', source: `app${k}` }, evaluation: { kind: 'window', aggregate: 'count', window: '5m', warning: 50, critical: 200 } };
    case 2:
      return {
        filter: { type: 'deployment', source: `svc${k}` },
        evaluation: { kind: 'status_map', map: { deploy_started: 'warning', deploy_finished: 'ok', deploy_failed: 'critical' } },
      };
    default:
      return { filter: { type: 'uptime', name: `check${k}` }, evaluation: { kind: 'up_down', attribute: 'is_up' }, stale_after: '10m' };
  }
}

/**
 * The n-th event a project receives: the four kinds in turn, over the
 * project's watched things. Metric values move across the thresholds and
 * checks go down and up, so the notifying tiles change status now and then.
 */
export function eventBody(projectKey: string, n: number): Record<string, unknown> {
  const k = Math.floor(n / 4) % (TILES_PER_PROJECT / 4);
  const base = { project_key: projectKey, timestamp: new Date().toISOString() };
  switch (n % 4) {
    case 0:
      return { ...base, type: 'metric', name: `m${k}`, attributes: { value: (n * 37) % 100 } };
    case 1:
      return { ...base, type: 'error', name: 'exception', source: `app${k}`, attributes: { code: n % 7 } };
    case 2:
      return { ...base, type: 'deployment', name: ['deploy_started', 'deploy_finished', 'deploy_failed'][n % 3], source: `svc${k}`, attributes: {} };
    default:
      return { ...base, type: 'uptime', name: `check${k}`, attributes: { is_up: n % 40 < 20 } };
  }
}

async function inParallel<T>(count: number, lanes: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await work(i);
      }
    }),
  );
  return out;
}

/** Projects, their webhook notification service (to `receiverUrl`; none with `notifications: false`) and tiles, through the API. */
export async function provision(
  gateway: string,
  adminToken: string,
  projects: number,
  receiverUrl: string,
  options: { notifications?: boolean } = {},
): Promise<Project[]> {
  const big = 1_000_000_000;
  return inParallel(projects, 8, async (p) => {
    const project = await provisionProject(gateway, adminToken, { projectKey: `bench-${p}`, burstLimit: big, hourlyLimit: big, monthlyQuota: big });
    const service =
      options.notifications === false
        ? undefined
        : await request(`${gateway}/api/v1/notifications`, {
            token: project.userToken,
            body: { name: `receiver ${p}`, type: 'webhook', config: { url: `${receiverUrl}/hook/${p}` } },
          });
    if (service !== undefined && service.status !== 201) throw new Error(`notification service: ${service.status} ${JSON.stringify(service.body)}`);
    for (let i = 0; i < TILES_PER_PROJECT; i++) {
      const body: Record<string, unknown> = { name: `tile ${i}`, kind: 'metric', rule: tileRule(i) };
      if (service !== undefined && NOTIFYING.has(i)) body.notification_service_ids = [service.body.data.id];
      const tile = await request(`${gateway}/api/v1/tiles`, { token: project.apiKey, body });
      if (tile.status !== 201) throw new Error(`tile: ${tile.status} ${JSON.stringify(tile.body)}`);
    }
    return { projectKey: project.projectKey, apiKey: project.apiKey, userToken: project.userToken };
  });
}
