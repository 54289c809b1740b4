import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Pool } from '@pulseboard/db';
import { PulseboardError, tileReplaySchema, type TileRule } from '@pulseboard/contracts';
import { compileEvaluator, RulePreview, ruleReads, type TileState } from '@pulseboard/rules';
import { AUTHENTICATED, BODY_ERRORS, data, errors, idParams, SECURITY } from '../openapi/route-docs.ts';
import { notFound } from '../error-handler.ts';
import { parseTime } from '../params/time-window.ts';
import { scanPreviewEvents } from '@pulseboard/event-store';
import { awaitReplay, findEvaluatedTileState, requestReplay } from '@pulseboard/tile-state-store';
import { projectRevision, tileRuleFingerprint } from '../repositories/tile-rule-versions.ts';
import type { TileRecord } from '../repositories/tiles.ts';
import { presentTileState } from './present.ts';
import { PREVIEW_LIMITS } from './tile-preview-route.ts';
import { replayTileBody, type ReplayTileBody } from './tile-schemas.ts';

/** How long POST /tiles/:id/replay with dry_run false waits for the rule engine's outcome (its store wait and read included). */
const APPLY_WAIT_MS = 30_000;

const invalid = (field: string, message: string) => new PulseboardError('validation_error', { details: { [field]: [message] } });
const asList = (value: string | readonly string[] | undefined) => (value === undefined ? undefined : typeof value === 'string' ? [value] : value);

/** What a replay found: the replayed state, and the live one settled to the same instant. */
export interface ReplayOutcome {
  since: Date;
  until: Date;
  state: TileState;
  events: number;
  changes: number;
}

/**
 * The tile's current rule replayed over its project's stored events received
 * from `since` on, in the order the rule engine met them (their position in
 * the events topic), by the engine's own evaluator: each event applied at the
 * time the gateway received it, time-driven changes at the times the engine's
 * timer would have taken them, up to `until`. Bounded as the preview is.
 */
export async function replayTile(pool: Pool, tile: TileRecord, since: Date, until: number, timeLimitMs: number): Promise<ReplayOutcome> {
  const rule = tile.rule as TileRule;
  const replay = new RulePreview(rule, 0);
  const end = await scanPreviewEvents(
    pool,
    {
      projectKey: tile.project_key,
      since,
      types: asList(rule.filter?.type),
      names: asList(rule.filter?.name),
      reads: ruleReads(rule),
      maxEvents: PREVIEW_LIMITS.maxEvents,
      timeLimitMs,
      order: 'engine',
    },
    (event, receivedMs) => replay.push(event, receivedMs),
  );
  if (end === 'too_many') throw invalid('since', `covers more than ${PREVIEW_LIMITS.maxEvents} events (the most a replay reads); choose a later since`);
  if (end === 'too_slow') throw invalid('since', `takes more than ${timeLimitMs / 1000} s to read; choose a later since`);
  replay.finish(until);
  return { since, until: new Date(until), state: replay.current, events: replay.matched, changes: replay.changeCount };
}

/**
 * POST /api/v1/tiles/:id/replay (docs/api.md, Replay). Registered inside the
 * tile routes' scope: `loadTile` has found the tile (404 otherwise).
 */
export function registerTileReplay(
  api: FastifyInstance,
  pool: Pool,
  loadTile: (request: FastifyRequest<{ Params: { id: string } }>) => Promise<void>,
  timeLimitMs: number,
): void {
  api.addSchema(replayTileBody);
  // As previews: each holds a pooled connection for up to the time limit, so a few at once per gateway.
  let running = 0;
  const schema = {
    tags: ['tiles'],
    summary: "Replay a tile's rule over its stored events",
    description: `The state the tile's current rule gives over the project's events received since \`since\` (default: the tile's creation; at most 24 h ago), each applied in the order the rule engine met them, by the engine's own evaluator, compared with the live state. At most ${PREVIEW_LIMITS.maxEvents.toLocaleString('en')} events read and \`PREVIEW_TIME_LIMIT_MS\` (10 s) spent reading: beyond, 400 \`validation_error\` on \`since\`. With \`dry_run: false\` the rule engine applies it: in one transaction ordered with its own writes for the tile, over every event it had applied (once the store has stored them), the tile's state and its history since \`since\` become the replay's, and a closing change (cause \`rule\`) carries the live state's move to dashboards and notifications; 503 when the engine did not take it within 30 s (nothing changed).`,
    security: SECURITY.projectKeyOrUserToken,
    body: { $ref: replayTileBody.$id },
    response: { 200: data(tileReplaySchema, 'The replay'), ...errors('envelope', [...BODY_ERRORS, 404, 503, ...AUTHENTICATED]) },
  };
  /**
   * dry_run false: the rule engine applies it (it owns tile state and history), in its own
   * transaction ordered with its batches for the tile's partition; this waits for the outcome.
   */
  const apply = async (tile: TileRecord, since: Date) => {
    const revision = await projectRevision(pool, tile.project_key);
    if (revision === undefined) throw notFound('Project');
    const id = await requestReplay(pool, tile.id, tile.project_key, since, revision);
    const outcome = await awaitReplay(pool, id, APPLY_WAIT_MS);
    if (outcome === undefined)
      throw new PulseboardError('service_unavailable', { message: 'The rule engine did not take the replay in time; nothing was changed; retry shortly' });
    if (!outcome.ok)
      throw outcome.field === undefined ? new PulseboardError('service_unavailable', { message: outcome.message }) : invalid(outcome.field, outcome.message);
    const at = (state: typeof outcome.state) => ({ ...state, changed_at: state.changed_at === null ? null : new Date(state.changed_at) });
    return {
      tile_id: tile.id,
      since: since.toISOString(),
      until: outcome.until,
      dry_run: false,
      equal: outcome.equal,
      state: presentTileState(tile, at(outcome.state)),
      live: presentTileState(tile, at(outcome.live)),
      events_replayed: outcome.events_replayed,
      changes_total: outcome.changes_total,
    };
  };

  api.post<{ Params: { id: string }; Body: ReplayTileBody | undefined }>(
    '/api/v1/tiles/:id/replay',
    { preValidation: loadTile, config: { openapi: { params: idParams } }, schema },
    async (request, reply) => {
      const tile = request.targetTile!;
      const body: ReplayTileBody = request.body ?? { dry_run: true };
      const now = Date.now();
      const oldest = now - PREVIEW_LIMITS.maxMs;
      const since = body.since === undefined ? new Date(Math.max(tile.created_at.getTime(), oldest)) : parseTime(body.since);
      if (since === undefined) throw invalid('since', 'is not a valid ISO 8601 timestamp');
      if (since.getTime() < oldest) throw invalid('since', 'must be at most 24 h ago');
      if (since.getTime() > now) throw invalid('since', 'must not be in the future');
      if (body.dry_run === false) return reply.send({ data: await apply(tile, since) });
      if (running >= PREVIEW_LIMITS.concurrentPerGateway)
        throw new PulseboardError('service_unavailable', { message: 'Too many replays are running; retry shortly' });
      running++;
      let outcome: ReplayOutcome;
      try {
        outcome = await replayTile(pool, tile, since, now, timeLimitMs);
      } finally {
        running--;
      }
      const live = await liveState(pool, tile.id);
      return reply.send({ data: present(tile, outcome, live, true) });
    },
  );
}

/** The engine's live state of the tile, and whether it is on the tile's current rule (none once the tile is gone). */
async function liveState(pool: Pool, tileId: number) {
  const fingerprint = await tileRuleFingerprint(pool, tileId);
  return fingerprint === undefined ? undefined : findEvaluatedTileState(pool, tileId, fingerprint);
}

/** The live state as of the replay's end: on the current rule, its due time-driven changes taken (the engine's timer may not have fired yet). */
function settledLive(tile: TileRecord, live: Awaited<ReturnType<typeof liveState>>, until: number): { status: string; value: unknown } {
  if (live === undefined) return { status: 'unknown', value: null };
  // A grouped tile's own state moves only with its groups' (each settled by the engine's timer), never by itself.
  if (!live.on_current_rule || (tile.rule as TileRule).group_by !== undefined) return live;
  const state: TileState = {
    status: live.status,
    value: live.value,
    version: live.version,
    last_event_id: live.last_event_id,
    changed_at: live.changed_at?.getTime() ?? null,
    evaluation: live.evaluation,
  };
  return compileEvaluator(tile.rule as TileRule).advance(state, until).state;
}

function present(tile: TileRecord, outcome: ReplayOutcome, live: Awaited<ReturnType<typeof liveState>>, dryRun: boolean) {
  const settled = settledLive(tile, live, outcome.until.getTime());
  const { state } = outcome;
  return {
    tile_id: tile.id,
    since: outcome.since.toISOString(),
    until: outcome.until.toISOString(),
    dry_run: dryRun,
    equal: settled.status === state.status && settled.value === state.value,
    state: presentTileState(tile, {
      status: state.status,
      value: state.value,
      version: state.version,
      last_event_id: state.last_event_id,
      changed_at: new Date(state.changed_at ?? outcome.since.getTime()),
    }),
    live: presentTileState(tile, live),
    events_replayed: outcome.events,
    changes_total: outcome.changes,
  };
}
