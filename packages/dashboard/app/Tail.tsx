import { useEffect, useRef, useState } from 'preact/hooks';
import { tileRuleSchema } from '@pulseboard/contracts/tile-rule';
import { formatWhen } from './format.ts';
import type { Live } from './live.ts';

// The filters' allowed values, from the published schema (the tail takes GET /events' filters).
const filterProps = tileRuleSchema.properties.filter.properties;
const TYPES: readonly string[] = filterProps.type.anyOf[0].enum;
const SEVERITIES: readonly string[] = filterProps.severity.anyOf[0].enum;
const KEEP = 200; // events kept on screen

interface TailEvent {
  id: string | number;
  type: string;
  name: string;
  severity?: string;
  channel?: string;
  labels?: string[];
  timestamp: string;
  attributes?: Record<string, unknown>;
}
interface Filters {
  type: string;
  name: string;
  severity: string;
  channel: string;
  label: string;
}
const NONE: Filters = { type: '', name: '', severity: '', channel: '', label: '' };

function toWire(f: Filters): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['type', 'name', 'severity', 'channel'] as const) if (f[key].trim()) out[key] = f[key].trim();
  const labels = f.label
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (labels.length > 0) out.label = labels;
  return out;
}

function attributesText(a: Record<string, unknown> | undefined): string {
  if (!a) return '';
  const text = Object.entries(a)
    .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(' ');
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

/** The live event tail (protocol.md "Live event tail"): filters, a bounded list, skipped counts. */
export function Tail({ live }: { live: Live }) {
  const [filters, setFilters] = useState<Filters>(NONE);
  const [applied, setApplied] = useState<Filters>(NONE);
  const [events, setEvents] = useState<TailEvent[]>([]);
  const [skipped, setSkipped] = useState(0);
  const [state, setState] = useState<'starting' | 'tailing' | 'paused' | 'error'>('starting');
  const [info, setInfo] = useState('');
  const project = live.project;
  const pending = useRef<TailEvent[]>([]);

  useEffect(() => {
    if (!project) return;
    let frame = 0;
    // Events arrive up to 50 a second: drawn once a frame.
    const flush = () => {
      frame = 0;
      const fresh = pending.current.reverse();
      pending.current = [];
      setEvents((list) => [...fresh, ...list].slice(0, KEEP));
    };
    live.handlers.set('tailing', (m) => {
      if (m.project !== project) return;
      setState('tailing');
      setInfo(`at most ${String(m.max_per_second)} events a second; the rest are counted`);
    });
    live.handlers.set('event', (m) => {
      if (m.v !== 1 || m.project !== project) return;
      pending.current.push(m.event as TailEvent);
      if (!frame) frame = requestAnimationFrame(flush);
    });
    live.handlers.set('skipped', (m) => {
      if (m.v !== 1 || m.project !== project) return;
      setSkipped((n) => n + Number(m.count));
    });
    live.handlers.set('untailed', (m) => {
      if (m.project === project && m.reason === 'project_deleted') setState('error');
    });
    live.handlers.set('project_switch', () => undefined);
    if (state !== 'paused') live.send({ type: 'tail', v: 1, project, filters: toWire(applied) });
    return () => {
      live.send({ type: 'untail', project });
      for (const type of ['tailing', 'event', 'skipped', 'untailed']) live.handlers.delete(type);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [project, applied, state === 'paused', live.conn.state === 'live']);

  const set = (key: keyof Filters) => (e: Event) => setFilters({ ...filters, [key]: (e.currentTarget as HTMLInputElement).value });
  return (
    <section class="panel" aria-labelledby="tail-title">
      <h2 id="tail-title">Live events</h2>
      <form
        class="grid2"
        aria-label="Tail filters"
        onSubmit={(e) => {
          e.preventDefault();
          setEvents([]);
          setSkipped(0);
          setState('starting');
          setApplied(filters);
        }}
      >
        <label>
          Type
          <select value={filters.type} onChange={set('type')}>
            <option value="">any</option>
            {TYPES.map((t) => (
              <option value={t}>{t}</option>
            ))}
          </select>
        </label>
        <label>
          Event name
          <input value={filters.name} onInput={set('name')} placeholder="any" />
        </label>
        <label>
          Severity
          <select value={filters.severity} onChange={set('severity')}>
            <option value="">any</option>
            {SEVERITIES.map((t) => (
              <option value={t}>{t}</option>
            ))}
          </select>
        </label>
        <label>
          Channel
          <input value={filters.channel} onInput={set('channel')} placeholder="any" />
        </label>
        <label>
          Labels (all of, comma separated)
          <input value={filters.label} onInput={set('label')} placeholder="any" />
        </label>
        <div class="row">
          <button type="submit">Apply filters</button>
          <button type="button" class="secondary" onClick={() => setState(state === 'paused' ? 'starting' : 'paused')}>
            {state === 'paused' ? 'Resume' : 'Pause'}
          </button>
        </div>
      </form>
      <p class="muted" role="status" id="tail-status">
        {state === 'tailing' ? `Tailing: ${info}.` : state === 'paused' ? 'Paused.' : state === 'error' ? 'The project was deleted.' : 'Starting…'}
        {skipped > 0 ? ` ${skipped} events skipped (over the rate).` : ''}
      </p>
      {events.length === 0 ? (
        <p>No events yet.</p>
      ) : (
        <ul class="tail" aria-label="Events, newest first">
          {events.map((e) => (
            <li key={String(e.id)} data-event={String(e.id)}>
              <span class="muted">{formatWhen(e.timestamp)}</span>
              <span class="ev-type">{e.type}</span>
              <span>
                <strong>{e.name}</strong>
                {e.severity ? ` · ${e.severity}` : ''}
                {e.channel ? ` · #${e.channel}` : ''}
                {e.labels?.length ? ` · ${e.labels.join(', ')}` : ''} <span class="muted">{attributesText(e.attributes)}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
