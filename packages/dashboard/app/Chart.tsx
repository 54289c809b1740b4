import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { STATUS_COLOR, STATUS_LABEL } from './format.ts';
import type { Point } from './live.ts';

interface Props {
  points: Point[];
  /** Seconds shown, ending now. */
  span: number;
  /** Draw the value as a line (threshold and window tiles); otherwise only the status band. */
  showValue: boolean;
  unit?: string | undefined;
  /** Changes when the points or the clock moved: the chart redraws then, and only then. */
  version: number;
}

const BAND = 8; // css px of the status band under the plot

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

/** Values as steps up to now: a tile keeps its value until the next change. */
function series(points: Point[], from: number, now: number): [number[], Array<number | null>] {
  const xs: number[] = [];
  const ys: Array<number | null> = [];
  let before: Point | undefined;
  for (const p of points) {
    if (p.t < from) before = p;
    else {
      xs.push(p.t);
      ys.push(p.value);
    }
  }
  if (before) {
    xs.unshift(from);
    ys.unshift(before.value);
  }
  if (xs.length > 0) {
    xs.push(now);
    ys.push(ys.at(-1) ?? null);
  }
  return [xs, ys];
}

/** The status band: one coloured run per status held, drawn under the plot. */
function drawBand(u: uPlot, points: Point[], from: number, now: number): void {
  const ctx = u.ctx;
  const dpr = devicePixelRatio || 1;
  const top = u.bbox.top + u.bbox.height + 2 * dpr;
  const h = BAND * dpr;
  ctx.save();
  ctx.fillStyle = cssVar('--band-empty');
  ctx.fillRect(u.bbox.left, top, u.bbox.width, h);
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    const end = points[i + 1]?.t ?? now;
    if (end < from) continue;
    const x0 = u.valToPos(Math.max(p.t, from), 'x', true);
    const x1 = u.valToPos(Math.min(end, now), 'x', true);
    ctx.fillStyle = STATUS_COLOR[p.status];
    ctx.fillRect(x0, top, Math.max(x1 - x0, dpr), h);
  }
  ctx.restore();
}

export function Chart({ points, span, showValue, unit, version }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef({ points, span });
  latest.current = { points, span };

  useEffect(() => {
    const el = box.current!;
    const now = Date.now() / 1000;
    const muted = cssVar('--muted');
    const opts: uPlot.Options = {
      width: Math.max(el.clientWidth, 100),
      height: showValue ? 110 : 30,
      legend: { show: false },
      cursor: { show: false },
      select: { show: false, left: 0, top: 0, width: 0, height: 0 },
      padding: [6, 4, showValue ? 0 : BAND + 4, 0],
      scales: { x: { time: true, range: () => [Date.now() / 1000 - latest.current.span, Date.now() / 1000] } },
      axes: showValue
        ? [
            // The band sits between the plot and the time labels.
            { stroke: muted, grid: { show: false }, ticks: { show: false }, gap: BAND + 4, size: 30 + BAND, font: '11px system-ui' },
            {
              stroke: muted,
              grid: { stroke: cssVar('--grid'), width: 1 },
              ticks: { show: false },
              size: 48,
              font: '11px system-ui',
              values: (_u, vals) => vals.map((v) => (unit === 'percent' ? `${v}%` : unit && unit.length <= 3 ? `${v} ${unit}` : String(v))),
            },
          ]
        : [{ show: false }, { show: false }],
      series: [{}, { stroke: cssVar('--line'), width: 2, paths: uPlot.paths.stepped!({ align: 1 }), points: { show: false }, spanGaps: false }],
      hooks: { draw: [(u) => drawBand(u, latest.current.points, Date.now() / 1000 - latest.current.span, Date.now() / 1000)] },
    };
    const from = now - span;
    plot.current = new uPlot(opts, series(points, from, now), el);
    const resize = new ResizeObserver(() => plot.current?.setSize({ width: Math.max(el.clientWidth, 100), height: opts.height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
  }, [showValue, unit]);

  useEffect(() => {
    const now = Date.now() / 1000;
    plot.current?.setData(series(points, now - span, now));
  }, [version, span]);

  const last = points.at(-1);
  const values = points.map((p) => p.value).filter((v): v is number => v !== null);
  const summary = showValue && values.length > 0 ? `value from ${Math.min(...values)} to ${Math.max(...values)}${unit ? ` ${unit}` : ''}; ` : '';
  const label = `Chart of the last ${span >= 86400 ? 'day' : 'hour'}: ${summary}${points.length} status changes${last ? `, now ${STATUS_LABEL[last.status]}` : ''}`;
  return <div class="chart" ref={box} role="img" aria-label={label} />;
}
