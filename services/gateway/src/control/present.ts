import type { ProjectRecord } from './projects-repo.ts';
import type { GatewayDeps } from '../deps.ts';

/** A project as the API shows it, with the limits that apply (its own or the environment's). */
export function presentProject(row: ProjectRecord, deps: Pick<GatewayDeps, 'env'>) {
  return {
    id: row.project_key,
    project_key: row.project_key,
    account_id: row.account_id,
    name: row.name,
    api_key_prefix: row.api_key_prefix,
    monthly_quota: row.monthly_quota,
    limits: {
      burst_per_minute: row.burst_limit ?? deps.env.DEFAULT_BURST_LIMIT,
      project_hourly_requests: row.hourly_request_limit ?? deps.env.DEFAULT_PROJECT_HOURLY_LIMIT,
      monthly_quota: row.monthly_quota,
    },
    settings: row.settings,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
