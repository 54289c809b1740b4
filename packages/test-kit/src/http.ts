import { checkAgainstOpenApi, isDocumentedApi } from './openapi-check.ts';

/** Small fetch helpers for black-box tests of the HTTP API. */
export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function request<T = any>(
  url: string,
  init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string>; rawBody?: string | Uint8Array } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  const method = init.method ?? (init.body !== undefined || init.rawBody !== undefined ? 'POST' : 'GET');
  const sent = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  const response = await fetch(url, { method, headers, body: sent });
  const text = await response.text();
  // Every exchange with the gateway's API is checked against the OpenAPI document (openapi-check.ts);
  // a benchmark driving an older checkout's gateway turns it off (PULSEBOARD_OPENAPI_CHECK=off).
  if (process.env.PULSEBOARD_OPENAPI_CHECK !== 'off' && isDocumentedApi(url))
    checkAgainstOpenApi({
      method,
      url,
      requestHeaders: lowerCase(headers),
      requestBody: sent,
      status: response.status,
      responseHeaders: response.headers,
      responseText: text,
    });
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text so the assertion shows it
  }
  return { status: response.status, headers: response.headers, body: body as T };
}

function lowerCase(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

/** An account, a user and a project made through the admin API, with their secrets. */
export async function provisionProject(
  baseUrl: string,
  adminToken: string,
  options: { projectKey?: string; monthlyQuota?: number; burstLimit?: number; hourlyLimit?: number; retentionDays?: number } = {},
) {
  const projectKey = options.projectKey ?? `p-${Math.random().toString(36).slice(2, 10)}`;
  const account = await request(`${baseUrl}/api/v1/admin/accounts`, { token: adminToken, body: { name: `account of ${projectKey}` } });
  if (account.status !== 201) throw new Error(`create account: ${account.status} ${JSON.stringify(account.body)}`);
  const user = await request(`${baseUrl}/api/v1/admin/accounts/${account.body.id}/users`, { token: adminToken, body: { email: `${projectKey}@example.test` } });
  if (user.status !== 201) throw new Error(`create user: ${user.status} ${JSON.stringify(user.body)}`);
  const body: Record<string, unknown> = { project_key: projectKey, name: `Project ${projectKey}` };
  if (options.monthlyQuota !== undefined) body.monthly_quota = options.monthlyQuota;
  if (options.burstLimit !== undefined) body.burst_limit = options.burstLimit;
  if (options.hourlyLimit !== undefined) body.hourly_request_limit = options.hourlyLimit;
  if (options.retentionDays !== undefined) body.retention_days = options.retentionDays;
  const project = await request(`${baseUrl}/api/v1/admin/accounts/${account.body.id}/projects`, { token: adminToken, body });
  if (project.status !== 201) throw new Error(`create project: ${project.status} ${JSON.stringify(project.body)}`);
  return { accountId: account.body.id as number, projectKey, apiKey: project.body.api_key as string, userToken: user.body.token as string };
}

let envelopeNow: () => number = Date.now;

/**
 * The clock `envelope()` stamps events with. A test that runs the gateway on a
 * clock of its own sets it, so its events lie inside the gateway's timestamp
 * window (CONTRACT Events, Retention) like those of a client whose clock agrees.
 */
export function setEnvelopeClock(now: () => number): void {
  envelopeNow = now;
}

export function envelope(projectKey: string, overrides: Record<string, unknown> = {}) {
  return {
    project_key: projectKey,
    type: 'deployment',
    name: 'deploy_finished',
    timestamp: new Date(envelopeNow()).toISOString(),
    attributes: { version: '1.0.0', environment: 'production' },
    ...overrides,
  };
}
