import type { LimitDefaults } from '../auth/project-directory.ts';
import type { ProjectRecord } from '../repositories/projects.ts';
import type { TileGroupRecord, TileGroupTally, TileHistoryRow, TileStateRecord } from '@pulseboard/tile-state-store';
import type { TileRecord } from '../repositories/tiles.ts';

/**
 * A project as the API shows it. `burst_limit` and `hourly_request_limit` are
 * the project's own settings (null: the environment's default applies), the
 * names PUT /projects/:id takes (so is `retention_days`); `limits` are the values in force.
 */
export function presentProject(row: ProjectRecord, defaults: Pick<LimitDefaults, 'burst' | 'projectHourly' | 'retentionDays'>) {
  return {
    id: row.project_key,
    project_key: row.project_key,
    account_id: row.account_id,
    name: row.name,
    api_key_prefix: row.api_key_prefix,
    monthly_quota: row.monthly_quota,
    burst_limit: row.burst_limit,
    hourly_request_limit: row.hourly_request_limit,
    retention_days: row.retention_days,
    limits: {
      burst_per_minute: row.burst_limit ?? defaults.burst,
      project_hourly_requests: row.hourly_request_limit ?? defaults.projectHourly,
      monthly_quota: row.monthly_quota,
      retention_days: row.retention_days ?? defaults.retentionDays,
    },
    settings: row.settings,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function presentTile(row: TileRecord) {
  return {
    id: row.id,
    project_key: row.project_key,
    name: row.name,
    kind: row.kind,
    rule: row.rule,
    settings: row.settings,
    position: row.position,
    // bigint[] comes back from pg as strings; ids are integers everywhere (≤ 2^53).
    notification_service_ids: row.notification_service_ids.map(Number),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** GET /tiles/:id/state (CONTRACT Tiles): before the engine's first change a tile is unknown, version 0, since its creation. */
export function presentTileState(tile: TileRecord, state: TileStateRecord | undefined) {
  return {
    tile_id: tile.id,
    project_key: tile.project_key,
    status: state?.status ?? 'unknown',
    value: state?.value ?? null,
    version: state?.version ?? 0,
    last_event_id: state?.last_event_id ?? null,
    changed_at: (state?.changed_at ?? tile.created_at).toISOString(),
  };
}

/** What GET /tiles/:id/state adds for a grouped tile: its counts per status, refusals and a page of its groups. */
export function presentTileGroups(groupBy: string, groups: { rows: TileGroupRecord[]; tally: TileGroupTally | null }) {
  const counts = groups.tally?.counts;
  return {
    group_by: groupBy,
    group_counts: {
      unknown: counts?.unknown ?? 0,
      ok: counts?.ok ?? 0,
      warning: counts?.warning ?? 0,
      critical: counts?.critical ?? 0,
      stale: counts?.stale ?? 0,
    },
    groups_refused: groups.tally?.refused ?? 0,
    groups: groups.rows.map((g) => ({ key: g.key, status: g.status, value: g.value, version: g.version, changed_at: g.changed_at?.toISOString() ?? null })),
  };
}

/** The unit a tile's settings name (`settings.unit`, a string), if any. */
export function tileUnit(tile: TileRecord): string | null {
  const unit = tile.settings.unit;
  return typeof unit === 'string' && unit !== '' ? unit : null;
}

/** One change of GET /tiles/:id/history, with its unit (the tile's, else its event's `unit` attribute). */
export function presentTileHistory(tile: TileRecord, row: TileHistoryRow, unit: string | null) {
  return {
    position: row.position,
    tile_id: tile.id,
    status: row.status,
    previous_status: row.previous_status,
    value: row.value,
    unit,
    version: row.version,
    event_id: row.event_id,
    cause: row.cause,
    changed_at: row.changed_at.toISOString(),
  };
}
