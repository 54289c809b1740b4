import type { FastifyInstance } from 'fastify';
import type { Pool } from '@pulseboard/db';
import { PulseboardError, tilePreviewSchema } from '@pulseboard/contracts';
import { RulePreview, ruleReads, tallyOf, worstFirst } from '@pulseboard/rules';
import { readableProjects } from '../auth/principal.ts';
import { notFound } from '../error-handler.ts';
import { AUTHENTICATED, BODY_ERRORS, data, errors, SECURITY } from '../openapi/route-docs.ts';
import { parseTime } from '../params/time-window.ts';
import { scanPreviewEvents } from '@pulseboard/event-store';
import { previewTileBody, type PreviewTileBody } from './tile-schemas.ts';

const HOUR_MS = 3_600_000;
/** The preview's bounds (read-api.md): how far back, how many events (and how long: PREVIEW_TIME_LIMIT_MS). Beyond any: 400. */
export const PREVIEW_LIMITS = { defaultMs: HOUR_MS, maxMs: 24 * HOUR_MS, maxEvents: 1_000_000, timelineChanges: 5000, concurrentPerGateway: 2 };

const invalid = (field: string, message: string) => new PulseboardError('validation_error', { details: { [field]: [message] } });
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const asList = (value: string | readonly string[] | undefined) => (value === undefined ? undefined : typeof value === 'string' ? [value] : value);

/**
 * POST /api/v1/tiles/preview: what a rule would have done over the project's
 * stored events, by the rule engine's own evaluator (@pulseboard/rules). Each
 * event is applied at the time the gateway received it, in timestamp order;
 * time-driven changes at the times the engine's timer would have fired, up
 * to now. Registered inside the tile routes' scope (the rule schema, the
 * principal hook); `checkRule` is the tile create's own check.
 */
export function registerTilePreview(api: FastifyInstance, pool: Pool, checkRule: (rule: unknown) => void, timeLimitMs: number): void {
  api.addSchema(previewTileBody);
  // Each preview holds a pooled connection for up to the time limit: a few at once per gateway, the rest 503 with Retry-After.
  let running = 0;
  const schema = {
    tags: ['tiles'],
    summary: 'Preview a rule over stored events',
    description: `The timeline of states a tile with this rule would have had since \`since\` (default an hour ago, at most 24 h), and how many events matched, by the rule engine's own evaluator. At most ${PREVIEW_LIMITS.maxEvents.toLocaleString('en')} events read and \`PREVIEW_TIME_LIMIT_MS\` (10 s) spent reading: beyond, 400 \`validation_error\` on \`since\`.`,
    security: SECURITY.projectKeyOrUserToken,
    body: { $ref: previewTileBody.$id },
    response: { 200: data(tilePreviewSchema, 'The preview'), ...errors('envelope', [...BODY_ERRORS, 404, ...AUTHENTICATED]) },
  };
  api.post<{ Body: PreviewTileBody }>('/api/v1/tiles/preview', { schema }, async (request, reply) => {
    const principal = request.principal!;
    const projectKey = request.body.project_key ?? (principal.kind === 'project' ? principal.project.projectKey : undefined);
    if (projectKey === undefined) throw invalid('project_key', "can't be blank");
    checkRule(request.body.rule);
    const now = Date.now();
    const since = request.body.since === undefined ? new Date(now - PREVIEW_LIMITS.defaultMs) : parseTime(request.body.since);
    if (since === undefined) throw invalid('since', 'is not a valid ISO 8601 timestamp');
    if (since.getTime() < now - PREVIEW_LIMITS.maxMs) throw invalid('since', 'must be at most 24 h ago');
    if (since.getTime() > now) throw invalid('since', 'must not be in the future');
    const [visible] = await readableProjects(principal, pool, projectKey);
    if (visible === undefined) throw notFound('Project');

    const rule = request.body.rule;
    const preview = new RulePreview(rule, PREVIEW_LIMITS.timelineChanges);
    if (running >= PREVIEW_LIMITS.concurrentPerGateway)
      throw new PulseboardError('service_unavailable', { message: 'Too many previews are running; retry shortly' });
    running++;
    let end;
    try {
      end = await scanPreviewEvents(
        pool,
        {
          projectKey: visible,
          since,
          types: asList(rule.filter?.type),
          names: asList(rule.filter?.name),
          reads: ruleReads(rule),
          maxEvents: PREVIEW_LIMITS.maxEvents,
          timeLimitMs,
        },
        (event, receivedMs) => preview.push(event, receivedMs),
      );
    } finally {
      running--;
    }
    if (end === 'too_many') throw invalid('since', `covers more than ${PREVIEW_LIMITS.maxEvents} events (the most a preview reads); choose a later since`);
    if (end === 'too_slow') throw invalid('since', `takes more than ${timeLimitMs / 1000} s to read; choose a later since`);
    preview.finish(now);
    const state = preview.current;
    const grouped = rule.group_by === undefined ? {} : presentGroups(preview);
    return reply.send({
      data: {
        project_key: visible,
        since: since.toISOString(),
        until: new Date(now).toISOString(),
        events_scanned: preview.scanned,
        events_matched: preview.matched,
        changes_total: preview.changeCount,
        state: { status: state.status, value: state.value, version: state.version, changed_at: iso(state.changed_at) },
        ...grouped,
        timeline: preview.changes.map((c) => ({
          status: c.status,
          previous_status: c.previous_status,
          value: c.value,
          version: c.version,
          event_id: c.event_id,
          cause: c.cause,
          changed_at: new Date(c.changed_at).toISOString(),
          ...(c.group === undefined ? {} : { group: c.group }),
        })),
      },
    });
  });
}

/** A grouped rule's preview: its counts per status, refusals and its 100 worst groups (as GET /tiles/:id/state shows them). */
function presentGroups(preview: RulePreview) {
  const tally = tallyOf(preview.current);
  const groups = [...preview.groups]
    .map(([key, { state }]) => ({ key, status: state.status, value: state.value, version: state.version, changed_at: iso(state.changed_at) }))
    .sort((a, b) => worstFirst(a.status, b.status) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, 100);
  return { group_counts: tally.counts, groups_refused: tally.refused, groups };
}
