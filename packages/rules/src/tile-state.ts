import type { TileChangeCause, TileLevel, TileStatus, TileValue } from '@pulseboard/contracts';
import type { GroupTally } from './grouping.ts';

/**
 * Since when (engine time, epoch ms) the level the data gives has been at
 * least warning, at least critical, at most ok, at most warning, without a
 * break; null while it is not. Damping reads these: `pending` asks how long
 * a worse level has held, `recovery` how long a better one has.
 */
export interface LevelRuns {
  at_least_warning: number | null;
  at_least_critical: number | null;
  at_most_ok: number | null;
  at_most_warning: number | null;
}

/**
 * One slot of a window, sorted by `time` (epoch ms): the time it leaves the
 * window from (its newest event's time), how many events it holds, and their
 * sum (sum, avg), their extreme (min, max) or 0 (count).
 */
export type WindowEntry = [time: number, count: number, x: number];

/** What the engine keeps to evaluate a tile; serialisable as is (the `evaluation` jsonb of `tile_states`). */
export interface EvaluationState {
  /** Engine time the tile is settled through; null before its first event. Time never runs backwards for a tile. */
  at: number | null;
  /** The level the data gives now, before damping and staleness; null before the first event the evaluation used. */
  level: TileLevel | null;
  /** Time of the newest event the evaluation used (its timestamp, no later than the engine's clock then). */
  latest: number | null;
  runs: LevelRuns;
  /** The window's events, for the window kind only. */
  window?: readonly WindowEntry[];
  /** A grouped tile's own state only (rule `group_by`): its groups per status and the events refused. */
  groups?: GroupTally;
}

/** A tile's state: the published record (CONTRACT: Tiles) and the evaluation state behind it. */
export interface TileState {
  status: TileStatus;
  /** Not damped: the value always shows what the data says, the status may lag behind it. */
  value: TileValue;
  version: number;
  /** The event that made the last change; null when time or a rule change made it, or before any. */
  last_event_id: number | null;
  /** Epoch ms of the last change; null before any. */
  changed_at: number | null;
  evaluation: EvaluationState;
}

/** One change of status or value; the service adds the tile's identity and the history position. */
export interface TileStateChange {
  cause: TileChangeCause;
  status: TileStatus;
  previous_status: TileStatus;
  value: TileValue;
  previous_value: TileValue;
  version: number;
  event_id: number | null;
  changed_at: number;
  /** The group this change is of (a grouped tile's group); absent for a change of the tile itself. */
  group?: string;
}

/**
 * The outcome of one evaluation. `state` is the input object itself when
 * nothing changed (nothing to write). `changes` holds at most a time-driven
 * change followed by the event's own. `wakeAt` is the engine time at which
 * the tile needs `advance` next (a window entry leaving, damping resolving,
 * staleness), or null.
 */
export interface EvaluationStep {
  state: TileState;
  changes: TileStateChange[];
  wakeAt: number | null;
}

export const NO_RUNS: LevelRuns = { at_least_warning: null, at_least_critical: null, at_most_ok: null, at_most_warning: null };
