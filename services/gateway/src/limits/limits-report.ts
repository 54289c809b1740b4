import type { LimitSubject, Usage } from './limiter.ts';
import type { Windows } from './windows.ts';

export interface LimitStatus {
  limit: number;
  used: number;
  remaining: number;
  /** Unix epoch seconds when the window ends, as in X-RateLimit-Reset. */
  reset: number;
  /** The same instant, ISO 8601. */
  reset_at: string;
  /** What is counted: events or requests (CONTRACT Limits). */
  counts: 'events' | 'requests';
}

function status(limit: number, used: number, reset: number, counts: LimitStatus['counts']): LimitStatus {
  return { limit, used, remaining: Math.max(0, limit - used), reset, reset_at: new Date(reset * 1000).toISOString(), counts };
}

/**
 * The limits of a project's requests that are the tenant's own, with their
 * current usage (GET /api/v1/rate_limits). The system-wide hourly window is
 * enforced but not shown: its usage is every tenant's traffic (issue 24).
 */
export function limitsReport(project: Pick<LimitSubject, 'projectKey' | 'limits'>, usage: Usage, w: Windows) {
  const l = project.limits;
  return {
    project_key: project.projectKey,
    limits: {
      burst_per_minute: status(l.burst, usage.minute, w.minute.resetAt, 'events'),
      project_hourly_requests: status(l.projectHourly, usage.projectHour, w.hour.resetAt, 'requests'),
      account_hourly_requests: status(l.accountHourly, usage.accountHour, w.hour.resetAt, 'requests'),
      monthly_quota: status(l.monthlyQuota, usage.month, w.month.resetAt, 'events'),
    },
  };
}
