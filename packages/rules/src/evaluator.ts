import { durationMs, type TileEvaluation, type TileLevel, type TileRule, type TileStatus, type TileValue } from '@pulseboard/contracts';
import { compileAttributePath } from './attribute-path.ts';
import { decideStatus, earliestAfter, nextResolution, trackRuns, type Timing } from './damping.ts';
import type { RuleEvent } from './event.ts';
import { compileLevels } from './levels.ts';
import { NO_RUNS, type EvaluationState, type EvaluationStep, type LevelRuns, type TileState, type TileStateChange, type WindowEntry } from './tile-state.ts';
import { slidingWindow } from './window.ts';

/**
 * A tile's rule made into pure functions over an explicit state. Time is
 * always passed in (`now`, epoch ms of the engine's clock), never read, so the
 * same states, events and times always give the same result.
 */
export interface TileEvaluator {
  initialState(): TileState;
  /** Takes the time-driven changes due by `now`, then the event (which the filter already matched). */
  applyEvent(state: TileState, event: RuleEvent, now: number): EvaluationStep;
  /** Takes the time-driven changes due by `now`: window entries leaving, damping resolving, staleness. */
  advance(state: TileState, now: number): EvaluationStep;
  /** When the tile next needs `advance`, or null. */
  wakeAt(state: TileState): number | null;
  /**
   * The state of a tile whose rule became this one: with `keepData` (same
   * filter and evaluation) its data re-settled under this rule's damping and
   * staleness, otherwise unknown again. A change here has cause `rule`.
   */
  adopt(state: TileState, now: number, keepData: boolean): EvaluationStep;
}

/** What the data says after an event or as time passes. */
interface Reading {
  value: TileValue;
  level: TileLevel;
  window?: readonly WindowEntry[];
}

type Window = readonly WindowEntry[] | undefined;

/** How a kind of evaluation turns events (and, for windows, time) into a reading. */
interface DataModel {
  /** The reading once the event, of time `time` (no later than `now`), is taken; null when the event says nothing to the tile. */
  observe(latest: number | null, window: Window, event: RuleEvent, time: number, now: number): Reading | null;
  /** The reading once what left the window by `t` is gone; null when nothing left. */
  expire(window: Window, t: number): Reading | null;
  nextExpiry(window: Window): number | null;
}

/**
 * status_map, threshold, up_down: the latest event decides. An event older
 * than the one already shown (out of order) changes nothing; of two with the
 * same time, the later to arrive wins.
 */
function latestEvent(read: (event: RuleEvent) => Reading | null): DataModel {
  return {
    observe: (latest, _window, event, time) => (latest !== null && time < latest ? null : read(event)),
    expire: () => null,
    nextExpiry: () => null,
  };
}

/** A number, or null for anything else (a numeric string is not a number: no coercion). */
const numberOf = (value: unknown) => (typeof value === 'number' ? value : null);

function dataModel(evaluation: TileEvaluation): DataModel {
  switch (evaluation.kind) {
    case 'status_map': {
      const levels = new Map(Object.entries(evaluation.map));
      return latestEvent((event) => {
        const level = levels.get(event.name);
        return level === undefined ? null : { value: event.name, level };
      });
    }
    case 'threshold': {
      const read = compileAttributePath(evaluation.attribute);
      const levelOf = compileLevels(evaluation);
      return latestEvent((event) => {
        const value = numberOf(read(event.attributes));
        return value === null ? null : { value, level: levelOf(value) };
      });
    }
    case 'up_down': {
      const read = compileAttributePath(evaluation.attribute);
      return latestEvent((event) => {
        const value = read(event.attributes);
        return typeof value === 'boolean' ? { value, level: value ? 'ok' : 'critical' } : null;
      });
    }
    case 'window': {
      const window = slidingWindow(evaluation.aggregate, durationMs(evaluation.window));
      const levelOf = compileLevels(evaluation);
      const read = evaluation.aggregate === 'count' || evaluation.attribute === undefined ? null : compileAttributePath(evaluation.attribute);
      const readX = read === null ? () => 0 : (event: RuleEvent) => numberOf(read(event.attributes));
      const reading = (entries: readonly WindowEntry[]): Reading => {
        const value = window.value(entries);
        // An empty avg, min or max has no value and nothing wrong with it.
        return { value, level: value === null ? 'ok' : levelOf(value), window: entries };
      };
      return {
        observe(_latest, entries = [], event, time, now) {
          if (time <= now - window.lengthMs) return null;
          const x = readX(event);
          return x === null ? null : reading(window.insert(window.expire(entries, now), time, x));
        },
        expire(entries = [], t) {
          const left = window.expire(entries, t);
          return left === entries ? null : reading(left);
        },
        nextExpiry: (entries = []) => window.nextExpiry(entries),
      };
    }
  }
}

function timingOf(rule: TileRule): Timing {
  return {
    pendingMs: rule.pending === undefined ? 0 : durationMs(rule.pending),
    recoveryMs: rule.recovery === undefined ? 0 : durationMs(rule.recovery),
    staleAfterMs: rule.stale_after === undefined ? null : durationMs(rule.stale_after),
  };
}

// States are built only here, fields always in the same order: one shape for V8 (a state
// read from jsonb, whose keys come sorted differently, takes it after one step).
function evaluationState(at: number | null, level: TileLevel | null, latest: number | null, runs: LevelRuns, window: Window): EvaluationState {
  return window === undefined ? { at, level, latest, runs } : { at, level, latest, runs, window };
}

function tileState(
  status: TileStatus,
  value: TileValue,
  version: number,
  lastEventId: number | null,
  changedAt: number | null,
  evaluation: EvaluationState,
): TileState {
  return { status, value, version, last_event_id: lastEventId, changed_at: changedAt, evaluation };
}

/** Compiles a rule that passed `tileRuleValidator`. */
export function compileEvaluator(rule: TileRule): TileEvaluator {
  const model = dataModel(rule.evaluation);
  const timing = timingOf(rule);
  const emptyWindow: Window = rule.evaluation.kind === 'window' ? [] : undefined;

  const isStale = (latest: number | null, t: number) => timing.staleAfterMs !== null && latest !== null && latest + timing.staleAfterMs <= t;

  /** The runs and the status at time `t` of a tile showing `status` whose data gives `level`. */
  function settle(status: TileStatus, level: TileLevel | null, latest: number | null, runs: LevelRuns, t: number): { runs: LevelRuns; status: TileStatus } {
    const stale = isStale(latest, t);
    const tracked = trackRuns(runs, level, t, stale);
    return { runs: tracked, status: decideStatus(status, level, tracked, t, stale, timing) };
  }

  function nextPoint(evaluation: EvaluationState, status: TileStatus, after: number): number | null {
    const staleAt = timing.staleAfterMs === null || evaluation.latest === null ? null : evaluation.latest + timing.staleAfterMs;
    return earliestAfter([model.nextExpiry(evaluation.window), staleAt, nextResolution(status, evaluation.level, evaluation.runs, after, timing)], after);
  }

  const wakeAt = (state: TileState) => (state.evaluation.at === null ? null : nextPoint(state.evaluation, state.status, state.evaluation.at));

  /** The new state, with a new version, event and time when its status or value differs from `previous`'s. */
  function finish(
    previous: TileState,
    status: TileStatus,
    value: TileValue,
    evaluation: EvaluationState,
    cause: TileStateChange['cause'],
    eventId: number | null,
    t: number,
  ): EvaluationStep {
    if (status === previous.status && value === previous.value) {
      const state = tileState(status, value, previous.version, previous.last_event_id, previous.changed_at, evaluation);
      return { state, changes: [], wakeAt: wakeAt(state) };
    }
    const version = previous.version + 1;
    const state = tileState(status, value, version, eventId, t, evaluation);
    const change: TileStateChange = {
      cause,
      status,
      previous_status: previous.status,
      value,
      previous_value: previous.value,
      version,
      event_id: eventId,
      changed_at: t,
    };
    return { state, changes: [change], wakeAt: wakeAt(state) };
  }

  const initialState = () => tileState('unknown', null, 0, null, null, evaluationState(null, null, null, NO_RUNS, emptyWindow));

  function advance(state: TileState, now: number): EvaluationStep {
    const at = state.evaluation.at;
    if (at === null) return { state, changes: [], wakeAt: null };
    let { level, runs, window } = state.evaluation;
    const latest = state.evaluation.latest;
    let { status, value } = state;
    let cursor = at;
    let changedAt = at;
    // Point by point, so each run starts when its level really began, however late the timer.
    for (
      let point = nextPoint(state.evaluation, status, cursor);
      point !== null && point <= now;
      point = nextPoint(evaluationState(cursor, level, latest, runs, window), status, cursor)
    ) {
      const reading = model.expire(window, point);
      if (reading !== null) {
        if (reading.value !== value) changedAt = point;
        ({ level, value, window } = reading);
      }
      const settled = settle(status, level, latest, runs, point);
      if (settled.status !== status) changedAt = point;
      ({ runs, status } = settled);
      cursor = point;
    }
    if (cursor === at) return { state, changes: [], wakeAt: wakeAt(state) };
    return finish(state, status, value, evaluationState(now, level, latest, runs, window), 'time', null, changedAt);
  }

  function applyEvent(state: TileState, event: RuleEvent, now: number): EvaluationStep {
    const advanced = advance(state, now);
    const current = advanced.state;
    const { at, latest, runs, window } = current.evaluation;
    const t = at === null ? now : Math.max(now, at);
    // An event stamped ahead of the engine's clock happened, as far as the tile can tell, now.
    const time = Math.min(event.time, t);
    const reading = model.observe(latest, window, event, time, t);
    if (reading === null) return advanced;
    const newest = latest === null ? time : Math.max(latest, time);
    const settled = settle(current.status, reading.level, newest, runs, t);
    const step = finish(
      current,
      settled.status,
      reading.value,
      evaluationState(t, reading.level, newest, settled.runs, reading.window ?? window),
      'event',
      event.id,
      t,
    );
    if (advanced.changes.length > 0) step.changes.unshift(...advanced.changes);
    return step;
  }

  function adopt(state: TileState, now: number, keepData: boolean): EvaluationStep {
    const { at, level, latest, runs, window } = state.evaluation;
    const t = at === null ? now : Math.max(now, at);
    if (!keepData) return finish(state, 'unknown', null, evaluationState(null, null, null, NO_RUNS, emptyWindow), 'rule', null, t);
    if (at === null) return { state, changes: [], wakeAt: null };
    const settled = settle(state.status, level, latest, runs, t);
    return finish(state, settled.status, state.value, evaluationState(t, level, latest, settled.runs, window), 'rule', null, t);
  }

  return { initialState, applyEvent, advance, wakeAt, adopt };
}
