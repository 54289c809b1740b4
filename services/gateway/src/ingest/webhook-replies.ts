/** Event ids on /api/v1/webhooks are strings with a prefix (CONTRACT: `evt_<id>`). */
function webhookEventId(id: number): string {
  return `evt_${id}`;
}

export interface WebhookResponse {
  status: 201 | 202;
  body: Record<string, unknown>;
}

/**
 * The success body of POST /api/v1/webhooks (spec 4.2, CONTRACT Webhooks endpoint).
 * With the rule engine's outcome: 201 `success` with `tiles_affected` (a batch
 * adds the sum and one entry per event). Without it (no rule engine, or the
 * bounded wait passed): 202 `accepted`, the same fields minus `tiles_affected`.
 */
export function webhookAccepted(ids: readonly number[], processedAt: Date, batch: boolean, outcomes?: ReadonlyMap<number, number>): WebhookResponse {
  const processed_at = processedAt.toISOString();
  const tiles = (id: number) => outcomes?.get(id) ?? 0;
  if (!batch) {
    const id = ids[0]!;
    return outcomes === undefined
      ? { status: 202, body: { status: 'accepted', event_id: webhookEventId(id), processed_at } }
      : { status: 201, body: { status: 'success', event_id: webhookEventId(id), processed_at, tiles_affected: tiles(id) } };
  }
  if (outcomes === undefined) {
    return { status: 202, body: { status: 'accepted', count: ids.length, processed_at, events: ids.map((id) => ({ event_id: webhookEventId(id) })) } };
  }
  return {
    status: 201,
    body: {
      status: 'success',
      count: ids.length,
      processed_at,
      tiles_affected: ids.reduce((sum, id) => sum + tiles(id), 0),
      events: ids.map((id) => ({ event_id: webhookEventId(id), tiles_affected: tiles(id) })),
    },
  };
}
