import { timestampWindowProblem, type ValidationDetails } from '@pulseboard/contracts';

/**
 * CONTRACT Events, Retention: details for every event of a valid request whose
 * `timestamp` lies outside [now − the project's retention, now + 24 h], keyed
 * `timestamp` (one event) or `events[i].timestamp` (a webhooks batch); null when
 * all are inside. Decided on the gateway's clock and the project's cached
 * retention, so no request waits for Postgres.
 */
export function timestampWindowDetails(events: readonly unknown[], retentionDays: number, nowMs: number, batch: boolean): ValidationDetails | null {
  let details: ValidationDetails | null = null;
  for (let i = 0; i < events.length; i++) {
    const timestamp = (events[i] as { timestamp?: unknown }).timestamp;
    if (typeof timestamp !== 'string') continue;
    const problem = timestampWindowProblem(timestamp, retentionDays, nowMs);
    if (problem !== undefined) (details ??= {})[batch ? `events[${i}].timestamp` : 'timestamp'] = [problem];
  }
  return details;
}
