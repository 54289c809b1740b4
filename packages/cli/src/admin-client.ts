/** A failed admin call: the HTTP status and the API's error envelope, or why the gateway could not be reached. */
export class AdminApiError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
    readonly details?: Record<string, string[]>,
  ) {
    super(message);
  }
}

export interface AdminClientOptions {
  url: string;
  adminToken: string;
  /** Per-request timeout. */
  timeoutMs?: number;
}

/**
 * An HTTP client of the admin API (/api/v1/admin/*), as the CLI and the demo
 * seeding use it. It holds no logic of its own: the gateway decides everything.
 */
export class AdminClient {
  private readonly base: string;

  constructor(private readonly options: AdminClientOptions) {
    this.base = options.url.replace(/\/+$/, '');
  }

  createAccount(body: { name: string; hourly_request_limit?: number }) {
    return this.call('POST', '/api/v1/admin/accounts', body);
  }
  listAccounts() {
    return this.call('GET', '/api/v1/admin/accounts');
  }
  createUser(accountId: number, body: { email: string }) {
    return this.call('POST', `/api/v1/admin/accounts/${accountId}/users`, body);
  }
  listUsers(accountId: number) {
    return this.call('GET', `/api/v1/admin/accounts/${accountId}/users`);
  }
  issueUserToken(userId: number) {
    return this.call('POST', `/api/v1/admin/users/${userId}/token`);
  }
  deleteUser(userId: number) {
    return this.call('DELETE', `/api/v1/admin/users/${userId}`);
  }
  createProject(accountId: number, body: { project_key: string; name: string; monthly_quota?: number; burst_limit?: number; hourly_request_limit?: number }) {
    return this.call('POST', `/api/v1/admin/accounts/${accountId}/projects`, body);
  }
  listProjects(accountId: number) {
    return this.call('GET', `/api/v1/admin/accounts/${accountId}/projects`);
  }
  deleteProject(projectKey: string) {
    return this.call('DELETE', `/api/v1/admin/projects/${encodeURIComponent(projectKey)}`);
  }

  /** Any API call with another credential (the seeding uses a user token for the project and tile API). */
  async call(method: string, path: string, body?: unknown, token = this.options.adminToken): Promise<any> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15000),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new AdminApiError(`cannot reach ${this.base}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (response.ok) return parsed ?? {};
    const envelope = (parsed as { error?: { code?: string; message?: string; details?: Record<string, string[]> } } | undefined)?.error;
    const message = envelope?.message ?? (text.slice(0, 200) || response.statusText);
    throw new AdminApiError(
      `${method} ${path} failed: ${response.status} ${envelope?.code ?? 'error'}: ${message}`,
      response.status,
      envelope?.code,
      envelope?.details,
    );
  }
}
