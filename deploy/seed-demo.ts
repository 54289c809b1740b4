/**
 * Seeds a demo account, user, project and tiles through the admin and project
 * APIs, and prints the demo user token and project API key. Safe to run again:
 * what exists is kept, secrets included. Secrets are shown only once by the
 * API, so the ones this script issued are kept in a credentials file (mode 600;
 * deploy/up.sh keeps it in the state dir) and reused while they still work: a
 * re-run does not sign out an open dashboard nor break a saved token or key.
 * A new user token and API key are issued when the kept ones no longer work
 * (another database, say), or on purpose with --rotate (the previous ones then
 * stop working at once).
 *
 * The demo project gets limits its traffic generator stays within
 * (deploy/demo-schedule.ts): the spec's defaults would refuse it within minutes.
 *
 * Usage: node --import tsx deploy/seed-demo.ts [GATEWAY_URL] [ADMIN_TOKEN] [--credentials FILE] [--rotate]
 *   (or PULSEBOARD_URL / ADMIN_TOKEN in the environment; DEMO_ACCOUNT_NAME, DEMO_USER_EMAIL,
 *   DEMO_PROJECT_KEY to seed other names)
 * Prints KEY=VALUE lines (PULSEBOARD_DEMO_USER_TOKEN, PULSEBOARD_DEMO_API_KEY, ...) for scripts.
 */
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AdminApiError, AdminClient } from '@pulseboard/cli';
import { DEMO_LIMITS } from './demo-schedule.ts';
import { TILES } from './demo-tiles.ts';

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: { credentials: { type: 'string' }, rotate: { type: 'boolean', default: false } },
});
const url = positionals[0] ?? process.env.PULSEBOARD_URL ?? 'http://127.0.0.1:8080';
const adminToken = positionals[1] ?? process.env.ADMIN_TOKEN ?? '';
const DEMO = {
  account: process.env.DEMO_ACCOUNT_NAME ?? 'Demo',
  email: process.env.DEMO_USER_EMAIL ?? 'demo@pulseboard.local',
  projectKey: process.env.DEMO_PROJECT_KEY ?? 'demo',
  projectName: 'Demo project',
};

interface Credentials {
  user_token?: string;
  api_key?: string;
}

/** The secrets kept by an earlier run, when they were for this gateway's demo user and project. */
function readCredentials(file: string | undefined): Credentials {
  if (file === undefined || !existsSync(file)) return {};
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as Credentials & { email?: string; project_key?: string };
    if (kept.email?.toLowerCase() !== DEMO.email.toLowerCase() || kept.project_key !== DEMO.projectKey) return {};
    return kept;
  } catch {
    return {};
  }
}

function writeCredentials(file: string, credentials: Required<Credentials>): void {
  const temp = `${file}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ email: DEMO.email, project_key: DEMO.projectKey, ...credentials }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, file);
}

/** Whether `path` answers 200 to `token` (a kept secret still works). */
async function works(api: AdminClient, path: string, token: string | undefined): Promise<boolean> {
  if (token === undefined || token === '') return false;
  try {
    await api.call('GET', path, undefined, token);
    return true;
  } catch (error) {
    if (error instanceof AdminApiError && (error.status === 401 || error.status === 403 || error.status === 404)) return false;
    throw error;
  }
}

async function seed(): Promise<void> {
  if (adminToken === '') throw new AdminApiError('no admin token: pass it as the second argument or set ADMIN_TOKEN');
  const api = new AdminClient({ url, adminToken });
  const kept = options.rotate ? {} : readCredentials(options.credentials);
  const notes: string[] = [];

  const accounts = (await api.listAccounts()).data as { id: number; name: string; max_monthly_quota: number | null }[];
  const account = accounts.find((a) => a.name === DEMO.account) ?? (await api.createAccount({ name: DEMO.account }));
  // A user token may raise a project's quota only up to its account's ceiling (ACCOUNT_MAX_MONTHLY_QUOTA by default).
  if ((account.max_monthly_quota ?? 0) < DEMO_LIMITS.monthly_quota)
    await api.call('PUT', `/api/v1/admin/accounts/${account.id}`, { max_monthly_quota: DEMO_LIMITS.monthly_quota });

  const users = (await api.listUsers(account.id)).data as { id: number; email: string }[];
  const existingUser = users.find((u) => u.email.toLowerCase() === DEMO.email.toLowerCase());
  let userToken: string;
  if (existingUser === undefined) {
    userToken = (await api.createUser(account.id, { email: DEMO.email })).token as string;
  } else if (await works(api, '/api/v1/tokens', kept.user_token)) {
    userToken = kept.user_token!;
  } else {
    userToken = (await api.issueUserToken(existingUser.id)).token as string;
    notes.push(
      options.rotate
        ? 'a new user token was issued (--rotate): the previous one no longer works'
        : 'the demo user existed without a kept token: a new one was issued (the previous one no longer works)',
    );
  }

  const projects = (await api.listProjects(account.id)).data as {
    project_key: string;
    monthly_quota: number;
    burst_limit: number | null;
    hourly_request_limit: number | null;
  }[];
  const existingProject = projects.find((p) => p.project_key === DEMO.projectKey);
  let apiKey: string;
  if (existingProject !== undefined) {
    const health = await works(api, '/api/v1/health', kept.api_key);
    if (health) {
      apiKey = kept.api_key!;
    } else {
      apiKey = (await api.call('POST', `/api/v1/projects/${DEMO.projectKey}/regenerate_key`, { confirm: true }, userToken)).data.api_key;
      notes.push(
        options.rotate
          ? "the demo project's API key was regenerated (--rotate): the previous key no longer works"
          : 'the demo project existed without a kept API key: its key was regenerated (the previous key no longer works)',
      );
    }
    const { monthly_quota, burst_limit, hourly_request_limit } = existingProject;
    if (monthly_quota !== DEMO_LIMITS.monthly_quota || burst_limit !== DEMO_LIMITS.burst_limit || hourly_request_limit !== DEMO_LIMITS.hourly_request_limit) {
      await api.call('PUT', `/api/v1/projects/${DEMO.projectKey}`, { ...DEMO_LIMITS }, userToken);
    }
  } else {
    try {
      apiKey = (await api.createProject(account.id, { project_key: DEMO.projectKey, name: DEMO.projectName, ...DEMO_LIMITS })).api_key;
    } catch (error) {
      if (error instanceof AdminApiError && error.details?.project_key !== undefined) {
        throw new AdminApiError(`project key "${DEMO.projectKey}" belongs to another account or a deleted project: set DEMO_PROJECT_KEY to another key`);
      }
      throw error;
    }
  }
  if (options.credentials !== undefined) writeCredentials(options.credentials, { user_token: userToken, api_key: apiKey });

  const tiles = (await api.call('GET', `/api/v1/tiles?project_key=${encodeURIComponent(DEMO.projectKey)}&per_page=100`, undefined, userToken)).data as {
    name: string;
  }[];
  let created = 0;
  for (const tile of TILES) {
    if (tiles.some((t) => t.name === tile.name)) continue;
    await api.call('POST', '/api/v1/tiles', { project_key: DEMO.projectKey, ...tile }, userToken);
    created++;
  }

  const limits = `${DEMO_LIMITS.burst_limit} events/min, ${DEMO_LIMITS.hourly_request_limit} requests/h, ${DEMO_LIMITS.monthly_quota} events/month`;
  console.log(
    `Demo: account "${DEMO.account}" (id ${account.id}), user ${DEMO.email}, project ${DEMO.projectKey} (limits ${limits}), ${TILES.length} tiles (${created} created now)`,
  );
  for (const note of notes) console.log(`note: ${note}`);
  console.log(`PULSEBOARD_DEMO_PROJECT_KEY=${DEMO.projectKey}`);
  console.log(`PULSEBOARD_DEMO_USER_TOKEN=${userToken}`);
  console.log(`PULSEBOARD_DEMO_API_KEY=${apiKey}`);
  console.log(`Try: curl -X POST ${url}/ingest -H "Authorization: Bearer $PULSEBOARD_DEMO_API_KEY" -H 'Content-Type: application/json' \\`);
  console.log(
    `       -d '{"project_key":"${DEMO.projectKey}","type":"deployment","name":"deploy_finished","timestamp":"${new Date().toISOString()}","attributes":{"version":"1.0.0"}}'`,
  );
}

seed().catch((error: unknown) => {
  console.error(`seed-demo: ${(error as Error).message}`);
  process.exitCode = 1;
});
