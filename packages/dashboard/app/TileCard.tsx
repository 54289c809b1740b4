import type { Tile, TileState } from './api.ts';
import { Chart } from './Chart.tsx';
import { GroupList } from './GroupList.tsx';
import type { TileGroups } from './groups.ts';
import { CHARTS_VALUE, formatValue, formatWhen, KIND_LABEL, STATUS_LABEL, STATUS_MARK, statusOf, unitOf } from './format.ts';
import { RANGES, type Point, type Range } from './live.ts';

interface Props {
  tile: Tile | undefined;
  /** The unit the tile's history named (settings.unit, else its events' `unit`). */
  eventUnit: string | undefined;
  state: TileState;
  /** A grouped tile's groups (rule `group_by`). */
  groups?: TileGroups | undefined;
  points: Point[];
  range: Range;
  version: number;
  changed: boolean;
  editable: boolean;
  first: boolean;
  last: boolean;
  onEdit: (tile: Tile) => void;
  onMove: (tile: Tile, by: number) => void;
}

export function TileCard({ tile, eventUnit, state, groups, points, range, version, changed, editable, first, last, onEdit, onMove }: Props) {
  const status = statusOf(state.status);
  const evaluation = tile?.rule.evaluation.kind ?? '';
  const unit = unitOf(tile, eventUnit);
  const value = formatValue(state.value, unit);
  const name = tile?.name ?? state.tile_name;
  return (
    <li
      class={`tile ${status}${changed ? ' changed' : ''}`}
      data-tile={String(state.tile_id)}
      tabIndex={0}
      aria-label={`${name}: ${STATUS_LABEL[status]}, value ${value}`}
    >
      <div class="tile-head">
        <h2>{name}</h2>
        {evaluation && <span class="kind">{KIND_LABEL[evaluation] ?? evaluation}</span>}
      </div>
      <p class="status">
        <span aria-hidden="true">{STATUS_MARK[status]} </span>
        {STATUS_LABEL[status]}
      </p>
      <p class="value">{value}</p>
      <p class="time">{state.changed_at ? `changed ${formatWhen(state.changed_at)}` : 'no change yet'}</p>
      <Chart points={points} span={RANGES[range]} showValue={CHARTS_VALUE.has(evaluation)} unit={unit} version={version} />
      {groups && <GroupList tileId={String(state.tile_id)} name={name} groups={groups} unit={unit} showValue={CHARTS_VALUE.has(evaluation)} range={range} />}
      {editable && tile && (
        <div class="tile-actions">
          <button type="button" class="secondary" onClick={() => onEdit(tile)} aria-label={`Edit ${name}`}>
            Edit
          </button>
          <button type="button" class="secondary icon" disabled={first} onClick={() => onMove(tile, -1)} aria-label={`Move ${name} earlier`}>
            ↑
          </button>
          <button type="button" class="secondary icon" disabled={last} onClick={() => onMove(tile, 1)} aria-label={`Move ${name} later`}>
            ↓
          </button>
        </div>
      )}
    </li>
  );
}
