import type { TileLevel, TileStatus } from '@pulseboard/contracts';
import { NO_RUNS, type LevelRuns } from './tile-state.ts';

/** How long a level must hold before the tile takes it, and when missing data makes it stale (ms). */
export interface Timing {
  pendingMs: number;
  recoveryMs: number;
  staleAfterMs: number | null;
}

// unknown and stale say nothing is known to be wrong: for damping they rank with ok.
const RANK: Record<TileStatus, number> = { unknown: 0, stale: 0, ok: 0, warning: 1, critical: 2 };

/** The runs once the level is `level` at time `t`; a stale tile's runs stop (fresh data starts them again). */
export function trackRuns(runs: LevelRuns, level: TileLevel | null, t: number, stale: boolean): LevelRuns {
  if (stale || level === null) return NO_RUNS;
  const rank = RANK[level];
  return {
    at_least_warning: rank >= 1 ? (runs.at_least_warning ?? t) : null,
    at_least_critical: rank >= 2 ? (runs.at_least_critical ?? t) : null,
    at_most_ok: rank === 0 ? (runs.at_most_ok ?? t) : null,
    at_most_warning: rank <= 1 ? (runs.at_most_warning ?? t) : null,
  };
}

const held = (since: number | null, t: number, durationMs: number) => since !== null && t - since >= durationMs;
const at = (since: number | null, durationMs: number) => (since === null ? null : since + durationMs);

/**
 * The status the tile shows at time `t`. A worse level is taken once it has
 * held `pending` (the worst level that has); a better one once it has held
 * `recovery` (the best that has). Leaving unknown or stale for ok is at once;
 * for warning or critical, `pending` applies as from ok.
 */
export function decideStatus(current: TileStatus, level: TileLevel | null, runs: LevelRuns, t: number, stale: boolean, timing: Timing): TileStatus {
  if (level === null) return current;
  if (stale) return 'stale';
  if (current === level) return current;
  const from = RANK[current];
  const to = RANK[level];
  if (to > from) {
    let status = current;
    if (from < 1 && held(runs.at_least_warning, t, timing.pendingMs)) status = 'warning';
    if (to === 2 && held(runs.at_least_critical, t, timing.pendingMs)) status = 'critical';
    return status;
  }
  if (from === 0) return level;
  if (held(runs.at_most_ok, t, timing.recoveryMs)) return 'ok';
  if (from === 2 && held(runs.at_most_warning, t, timing.recoveryMs)) return 'warning';
  return current;
}

/** The first time after `after` at which `decideStatus` would move the tile, the level staying as it is; or null. */
export function nextResolution(current: TileStatus, level: TileLevel | null, runs: LevelRuns, after: number, timing: Timing): number | null {
  // A stale tile's runs are stopped: nothing resolves until fresh data.
  if (level === null) return null;
  const from = RANK[current];
  const to = RANK[level];
  const candidates: (number | null)[] = [];
  if (to > from) {
    if (from < 1) candidates.push(at(runs.at_least_warning, timing.pendingMs));
    if (to === 2) candidates.push(at(runs.at_least_critical, timing.pendingMs));
  } else if (to < from) {
    candidates.push(at(runs.at_most_ok, timing.recoveryMs));
    if (from === 2) candidates.push(at(runs.at_most_warning, timing.recoveryMs));
  }
  return earliestAfter(candidates, after);
}

/** The smallest of `times` later than `after`, or null. */
export function earliestAfter(times: readonly (number | null)[], after: number): number | null {
  let earliest: number | null = null;
  for (const time of times) if (time !== null && time > after && (earliest === null || time < earliest)) earliest = time;
  return earliest;
}
