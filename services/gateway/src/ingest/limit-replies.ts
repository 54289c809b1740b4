import { PulseboardError } from '@pulseboard/contracts';
import type { LimitDecision, LimitSubject } from '../limits/limiter.ts';
import type { Decided } from './admission.ts';

type Refusal = Extract<LimitDecision, { kind: 'rate_limited' | 'quota_exceeded' }>;

const WINDOW_TEXT = {
  minute: 'per-minute burst limit',
  project_hour: 'hourly request limit of the project',
  account_hour: 'hourly request limit of the account',
  global_hour: 'global hourly request limit',
} as const;

/** 429 / 402 with the fields of both error shapes; the ingest shape carries the numbers (spec 7). */
export function limitError(refusal: Refusal): PulseboardError {
  if (refusal.kind === 'rate_limited') {
    return new PulseboardError('rate_limit_exceeded', {
      message: `Rate limit exceeded: ${WINDOW_TEXT[refusal.window]} of ${refusal.limit} reached, retry in ${refusal.retryAfter} s`,
      extra: { rate_limit: refusal.limit, current_usage: refusal.used, retry_after: refusal.retryAfter },
      headers: { 'retry-after': refusal.retryAfter },
    });
  }
  return new PulseboardError('quota_exceeded', {
    message: `Monthly quota of ${refusal.limit} events exceeded`,
    extra: { quota_limit: refusal.limit, quota_used: refusal.used, quota_reset_at: refusal.resetAt.toISOString() },
  });
}

/** The six rate-limit headers of spec 4.2: the hourly project window and the burst window. */
export function rateLimitHeaders(project: Pick<LimitSubject, 'limits'>, decision: Decided): Record<string, number> {
  const { usage, windows } = decision;
  return {
    'x-ratelimit-limit': project.limits.projectHourly,
    'x-ratelimit-remaining': Math.max(0, project.limits.projectHourly - usage.projectHour),
    'x-ratelimit-reset': windows.hour.resetAt,
    'x-burst-limit': project.limits.burst,
    'x-burst-remaining': Math.max(0, project.limits.burst - usage.minute),
    'x-burst-reset': windows.minute.resetAt,
  };
}
