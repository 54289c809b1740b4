import { useEffect, useState } from 'preact/hooks';
import { Chart } from './Chart.tsx';
import { formatValue, STATUS_LABEL, STATUS_MARK } from './format.ts';
import { countsText, type TileGroups } from './groups.ts';
import { live, RANGES, type Point, type Range } from './live.ts';

interface Props {
  tileId: string;
  name: string;
  groups: TileGroups;
  unit: string | undefined;
  showValue: boolean;
  range: Range;
}

/** Groups shown at first; each "More" shows as many again (reading the next page when needed). */
const STEP = 5;

/** A grouped tile's counts per status, its worst groups, and one group's chart on demand. */
export function GroupList({ tileId, name, groups, unit, showValue, range }: Props) {
  const [shown, setShown] = useState(STEP);
  const [open, setOpen] = useState<string | null>(null);
  const [points, setPoints] = useState<Point[] | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    if (open === null) return;
    let current = true;
    setPoints(null);
    setError('');
    live.groupHistory(tileId, open).then(
      (read) => current && setPoints(read),
      (e: Error) => current && setError(`Could not read the history: ${e.message}`),
    );
    return () => {
      current = false;
    };
  }, [open, tileId, range]);

  const more = () => {
    const next = shown + STEP;
    setShown(next);
    if (next > groups.rows.length && groups.pages < groups.totalPages) void live.loadGroups(tileId, groups.pages + 1);
  };
  const hasMore = shown < groups.rows.length || groups.pages < groups.totalPages;
  const rows = groups.rows.slice(0, shown);
  return (
    <div class="groups">
      <p class="group-counts" aria-label={`${name} groups by ${groups.by}`}>
        {countsText(groups.counts)}
        {groups.refused > 0 && <span class="refused"> · {groups.refused} refused</span>}
      </p>
      <ul class="group-list" aria-label={`${name} groups, worst first`}>
        {rows.map((g) => (
          <li class={`group ${g.status}`} data-group={g.key}>
            <button type="button" class="link" aria-expanded={open === g.key} onClick={() => setOpen(open === g.key ? null : g.key)}>
              <span aria-hidden="true">{STATUS_MARK[g.status]} </span>
              <span class="group-key">{g.key}</span> <span class="group-status">{STATUS_LABEL[g.status]}</span>{' '}
              <span class="group-value">{formatValue(g.value, unit)}</span>
            </button>
            {open === g.key &&
              (error ? (
                <p class="error">{error}</p>
              ) : points === null ? (
                <p class="muted">Reading…</p>
              ) : (
                <Chart points={points} span={RANGES[range]} showValue={showValue} unit={unit} version={points.length} />
              ))}
          </li>
        ))}
      </ul>
      {hasMore && (
        <button type="button" class="secondary more" onClick={more}>
          More groups
        </button>
      )}
    </div>
  );
}
