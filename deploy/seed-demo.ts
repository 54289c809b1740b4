/**
 * Seeds a demo account, user, project and tiles through the admin and project
 * APIs, and prints the demo user token and project API key. Safe to run again:
 * what exists is kept, except that secrets are shown only once, so a re-run
 * issues a new user token and regenerates the demo project's API key (the
 * previous ones stop working) and says so.
 *
 * Usage: node --import tsx deploy/seed-demo.ts [GATEWAY_URL] [ADMIN_TOKEN]
 *   (or PULSEBOARD_URL / ADMIN_TOKEN in the environment; DEMO_ACCOUNT_NAME, DEMO_USER_EMAIL,
 *   DEMO_PROJECT_KEY to seed other names)
 * Prints KEY=VALUE lines (PULSEBOARD_DEMO_USER_TOKEN, PULSEBOARD_DEMO_API_KEY, ...) for scripts.
 */
import { AdminApiError, AdminClient } from '@pulseboard/cli';
import { TILES } from './demo-tiles.ts';

const url = process.argv[2] ?? process.env.PULSEBOARD_URL ?? 'http://127.0.0.1:8080';
const adminToken = process.argv[3] ?? process.env.ADMIN_TOKEN ?? '';
const DEMO = {
  account: process.env.DEMO_ACCOUNT_NAME ?? 'Demo',
  email: process.env.DEMO_USER_EMAIL ?? 'demo@pulseboard.local',
  projectKey: process.env.DEMO_PROJECT_KEY ?? 'demo',
  projectName: 'Demo project',
};

async function seed(): Promise<void> {
  if (adminToken === '') throw new AdminApiError('no admin token: pass it as the second argument or set ADMIN_TOKEN');
  const api = new AdminClient({ url, adminToken });
  const notes: string[] = [];

  const accounts = (await api.listAccounts()).data as { id: number; name: string }[];
  const account = accounts.find((a) => a.name === DEMO.account) ?? (await api.createAccount({ name: DEMO.account }));

  const users = (await api.listUsers(account.id)).data as { id: number; email: string }[];
  const existingUser = users.find((u) => u.email.toLowerCase() === DEMO.email.toLowerCase());
  const user = existingUser === undefined ? await api.createUser(account.id, { email: DEMO.email }) : await api.issueUserToken(existingUser.id);
  if (existingUser !== undefined) notes.push(`the demo user existed: a new token was issued (the previous one no longer works)`);
  const userToken = user.token as string;

  const projects = (await api.listProjects(account.id)).data as { project_key: string }[];
  let apiKey: string;
  if (projects.some((p) => p.project_key === DEMO.projectKey)) {
    const regenerated = await api.call('POST', `/api/v1/projects/${DEMO.projectKey}/regenerate_key`, { confirm: true }, userToken);
    apiKey = regenerated.data.api_key;
    notes.push(`the demo project existed: its API key was regenerated (the previous key no longer works)`);
  } else {
    try {
      apiKey = (await api.createProject(account.id, { project_key: DEMO.projectKey, name: DEMO.projectName })).api_key;
    } catch (error) {
      if (error instanceof AdminApiError && error.details?.project_key !== undefined) {
        throw new AdminApiError(`project key "${DEMO.projectKey}" belongs to another account or a deleted project: set DEMO_PROJECT_KEY to another key`);
      }
      throw error;
    }
  }

  const tiles = (await api.call('GET', `/api/v1/tiles?project_key=${encodeURIComponent(DEMO.projectKey)}&per_page=100`, undefined, userToken)).data as { name: string }[];
  let created = 0;
  for (const tile of TILES) {
    if (tiles.some((t) => t.name === tile.name)) continue;
    await api.call('POST', '/api/v1/tiles', { project_key: DEMO.projectKey, ...tile }, userToken);
    created++;
  }

  console.log(`Demo: account "${DEMO.account}" (id ${account.id}), user ${DEMO.email}, project ${DEMO.projectKey}, ${TILES.length} tiles (${created} created now)`);
  for (const note of notes) console.log(`note: ${note}`);
  console.log(`PULSEBOARD_DEMO_PROJECT_KEY=${DEMO.projectKey}`);
  console.log(`PULSEBOARD_DEMO_USER_TOKEN=${userToken}`);
  console.log(`PULSEBOARD_DEMO_API_KEY=${apiKey}`);
  console.log(`Try: curl -X POST ${url}/ingest -H "Authorization: Bearer $PULSEBOARD_DEMO_API_KEY" -H 'Content-Type: application/json' \\`);
  console.log(`       -d '{"project_key":"${DEMO.projectKey}","type":"deployment","name":"deploy_finished","timestamp":"${new Date().toISOString()}","attributes":{"version":"1.0.0"}}'`);
}

seed().catch((error: unknown) => {
  console.error(`seed-demo: ${(error as Error).message}`);
  process.exitCode = 1;
});
