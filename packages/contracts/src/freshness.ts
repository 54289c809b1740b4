/**
 * How far behind live a project's tiles are ("freshness"). The rule engine
 * applies each events partition in order, so every project on a partition is
 * exactly as current as the partition: its tiles hold every event the gateway
 * accepted before `applied_through`. When the engine has applied everything
 * the gateway acknowledged on the partition (Kafka's end offset), nothing is
 * waiting and the tiles are live however long ago the last event came: a
 * quiet project never reads as behind.
 */

/** Below this the dashboard says "live" rather than "N s behind". */
export const FRESHNESS_LIVE_WITHIN_SECONDS = 5;
/** At or above this the status is `behind` (the dashboard shows it amber; the alert PulseboardTilesBehind uses it too). */
export const FRESHNESS_BEHIND_SECONDS = 30;
/** At or above this the status is `far_behind` (red). */
export const FRESHNESS_FAR_BEHIND_SECONDS = 300;

export const FRESHNESS_STATUSES = ['live', 'behind', 'far_behind', 'unknown'] as const;
export type FreshnessStatus = (typeof FRESHNESS_STATUSES)[number];

/** What `GET /api/v1/projects/{key}` answers as `freshness`. */
export interface Freshness {
  status: FreshnessStatus;
  /** 0 when nothing waits; else seconds since `applied_through`; null when unknown. */
  behind_seconds: number | null;
  /** Events acknowledged on the project's partition that the rule engine has not applied yet (all projects of the partition); null when unknown. */
  pending_events: number | null;
  /** Every event accepted before this is on the tiles; null before the rule engine reported. */
  applied_through: string | null;
  measured_at: string;
}

/** What the rule engine reported of one partition (table rule_engine_freshness). */
export interface AppliedProgress {
  /** The next offset to apply: the ones below are on the tiles (-1 before any). */
  nextOffset: bigint;
  /** Epoch ms: the later of the newest applied event's receipt and the last time the engine had applied all that was acknowledged. */
  appliedThrough: number | null;
}

/** A partition's offsets as Kafka reports them: `high` is one past the last acknowledged message. */
export interface PartitionEnds {
  low: bigint;
  high: bigint;
}

const seconds = (ms: number) => Math.round(Math.max(0, ms) / 100) / 10;

export function freshnessStatus(behindSeconds: number | null): FreshnessStatus {
  if (behindSeconds === null) return 'unknown';
  if (behindSeconds >= FRESHNESS_FAR_BEHIND_SECONDS) return 'far_behind';
  return behindSeconds >= FRESHNESS_BEHIND_SECONDS ? 'behind' : 'live';
}

/**
 * The freshness of a partition's tiles at `now` (epoch ms): live (0) when the
 * engine's next offset has reached the end offset, else `now - appliedThrough`.
 * Unknown without the end offsets (Kafka unreachable), or when events wait and
 * the engine has never reported when it applied one.
 */
export function freshnessOf(progress: AppliedProgress | undefined, ends: PartitionEnds | undefined, now: number): Freshness {
  const appliedThrough = progress?.appliedThrough ?? null;
  const base = { applied_through: appliedThrough === null ? null : new Date(appliedThrough).toISOString(), measured_at: new Date(now).toISOString() };
  if (ends === undefined) return { status: 'unknown', behind_seconds: null, pending_events: null, ...base };
  // No offset applied yet: the engine starts at the earliest message still kept.
  const from = progress === undefined || progress.nextOffset < 0n ? ends.low : progress.nextOffset;
  const pending = ends.high > from ? Number(ends.high - from) : 0;
  if (pending === 0) return { status: 'live', behind_seconds: 0, pending_events: 0, ...base };
  const behind = appliedThrough === null ? null : seconds(now - appliedThrough);
  return { status: freshnessStatus(behind), behind_seconds: behind, pending_events: pending, ...base };
}

const dateTime = { type: 'string', format: 'date-time' } as const;

/** `freshness` of `GET /api/v1/projects/{key}` (docs/api.md, "Freshness"). */
export const projectFreshnessSchema = {
  $id: 'https://pulseboard.dev/schemas/project-freshness.json',
  title: 'ProjectFreshness',
  description: `How far behind live the project's tiles are: \`live\` under ${FRESHNESS_BEHIND_SECONDS} s, \`behind\` from ${FRESHNESS_BEHIND_SECONDS} s, \`far_behind\` from ${FRESHNESS_FAR_BEHIND_SECONDS} s, \`unknown\` when Kafka's end offsets cannot be read or the rule engine has not reported yet`,
  type: 'object',
  additionalProperties: false,
  required: ['status', 'behind_seconds', 'pending_events', 'applied_through', 'measured_at'],
  properties: {
    status: { type: 'string', enum: FRESHNESS_STATUSES },
    behind_seconds: {
      anyOf: [{ type: 'number', minimum: 0 }, { type: 'null' }],
      description: "0 when the rule engine has applied every event the gateway acknowledged on the project's partition; else seconds since `applied_through`",
    },
    pending_events: {
      anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }],
      description: "Events acknowledged on the project's partition (shared with other projects) not yet applied",
    },
    applied_through: { anyOf: [dateTime, { type: 'null' }], description: 'Every event accepted before this time is on the tiles (to about a second)' },
    measured_at: dateTime,
  },
} as const;
