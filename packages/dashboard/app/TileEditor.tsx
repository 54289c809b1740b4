import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, ApiError, describeError, type Tile } from './api.ts';
import { Chart } from './Chart.tsx';
import { CHARTS_VALUE, formatValue, numeric, STATUS_LABEL, statusOf } from './format.ts';
import { countsText, type GroupRow } from './groups.ts';
import type { Point } from './live.ts';
import {
  EMPTY_FORM,
  EVALUATION_KINDS,
  EVENT_TYPES,
  formCanHold,
  formToRule,
  ruleProblems,
  ruleToForm,
  RULE_SCHEMA_ID,
  THRESHOLD_DIRECTIONS,
  WINDOW_AGGREGATES,
  type RuleForm,
} from './rule-form.ts';

interface Props {
  project: string;
  tile: Tile | null;
  services: Array<{ id: string | number; name: string; type: string }>;
  onClose: (changed: boolean) => void;
}

interface Preview {
  points: Point[];
  matched: number | null;
  note: string;
  /** A grouped rule's: "3 critical · 1 warning · 36 ok" and its worst groups (up to 100). */
  groups?: { counts: string; worst: GroupRow[] };
}

const KIND_TEXT: Record<string, string> = {
  threshold: 'Threshold (gauge)',
  window: 'Window aggregate',
  status_map: 'Status by event name',
  up_down: 'Up / down',
};

export function TileEditor({ project, tile, services, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [name, setName] = useState(tile?.name ?? '');
  const [kind, setKind] = useState(tile?.kind ?? 'metric');
  const [unit, setUnit] = useState(typeof tile?.settings.unit === 'string' ? tile.settings.unit : '');
  const [form, setForm] = useState<RuleForm>(tile ? ruleToForm(tile.rule) : EMPTY_FORM);
  const [json, setJson] = useState(tile ? JSON.stringify(tile.rule, null, 2) : JSON.stringify(formToRule(EMPTY_FORM), null, 2));
  const [mode, setMode] = useState<'form' | 'json'>(tile && !formCanHold(tile.rule) ? 'json' : 'form');
  const [attached, setAttached] = useState<Set<string>>(new Set((tile?.notification_service_ids ?? []).map(String)));
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [hours, setHours] = useState('6');
  const [confirming, setConfirming] = useState(false);
  const [applyPast, setApplyPast] = useState(false);

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const parsed = useMemo((): { rule?: unknown; problems: string[] } => {
    if (mode === 'form') return { rule: formToRule(form), problems: ruleProblems(formToRule(form)) };
    try {
      const rule = JSON.parse(json);
      return { rule, problems: ruleProblems(rule) };
    } catch (e) {
      return { problems: [`JSON: ${(e as Error).message}`] };
    }
  }, [mode, form, json]);

  // A changed rule of an existing tile can be applied to the past (POST /tiles/:id/replay), over the preview's span.
  const ruleChanged = tile !== null && parsed.rule !== undefined && JSON.stringify(parsed.rule) !== JSON.stringify(tile.rule);

  const set = (key: keyof RuleForm) => (e: Event) => setForm({ ...form, [key]: (e.currentTarget as HTMLInputElement).value });
  const switchMode = (next: 'form' | 'json') => {
    if (next === mode) return;
    if (next === 'json') setJson(JSON.stringify(formToRule(form), null, 2));
    else if (parsed.rule !== undefined) setForm(ruleToForm(parsed.rule));
    setMode(next);
  };

  // save, remove and runPreview show their own failures: the events that call them (`void`) ignore the promise.
  const save = async (e: Event) => {
    e.preventDefault();
    if (parsed.problems.length > 0 || !name.trim()) return setError(parsed.problems.length ? 'Fix the rule first.' : 'A tile needs a name.');
    setBusy(true);
    setError('');
    const settings = { ...(tile?.settings ?? {}) };
    if (unit.trim()) settings.unit = unit.trim();
    else delete settings.unit;
    const body = { name: name.trim(), kind, rule: parsed.rule, settings, notification_service_ids: [...attached].map(Number) };
    try {
      if (tile) {
        await api('PUT', `/tiles/${tile.id}`, body);
        // The rule engine replaces the tile's state and history since then with what the new rule gives.
        if (applyPast && ruleChanged)
          await api('POST', `/tiles/${tile.id}/replay`, { dry_run: false, since: new Date(Date.now() - Number(hours) * 3600_000).toISOString() });
      } else await api('POST', '/tiles', { project_key: project, ...body });
      onClose(true);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!tile) return;
    if (!confirming) return setConfirming(true);
    setBusy(true);
    try {
      await api('DELETE', `/tiles/${tile.id}`);
      onClose(true);
    } catch (err) {
      setError(describeError(err));
      setBusy(false);
    }
  };

  const runPreview = async () => {
    if (parsed.problems.length > 0) return;
    setPreview({ points: [], matched: null, note: 'Evaluating…' });
    const since = new Date(Date.now() - Number(hours) * 3600_000).toISOString();
    try {
      // contracts' tile-preview.json: the changes oldest first, counts, and the state it would have now.
      const res = await api<{
        data: {
          timeline: Array<{ status: string; value: unknown; changed_at: string }>;
          events_scanned: number;
          events_matched: number;
          changes_total: number;
          state: { status: string };
          group_counts?: Record<string, number>;
          groups_refused?: number;
          groups?: GroupRow[];
        };
      }>('POST', '/tiles/preview', { project_key: project, rule: parsed.rule, since });
      const d = res.data;
      // A grouped rule's timeline holds its groups' changes too (with `group`): the chart is the tile's own.
      const points = d.timeline
        .filter((r) => (r as { group?: string }).group === undefined)
        .map((r) => ({ t: Date.parse(r.changed_at) / 1000, status: statusOf(r.status), value: numeric(r.value) }));
      setPreview({
        points,
        matched: d.events_matched,
        note: `${d.events_matched} of ${d.events_scanned} events matched; ${d.changes_total} status changes; it would be ${STATUS_LABEL[statusOf(d.state.status)]} now`,
        ...(d.group_counts && {
          groups: {
            counts: `${countsText(d.group_counts)}${d.groups_refused ? ` · ${d.groups_refused} refused` : ''}`,
            worst: (d.groups ?? []).map((g) => ({ ...g, status: statusOf(g.status) })),
          },
        }),
      });
    } catch (err) {
      setPreview({
        points: [],
        matched: null,
        note:
          err instanceof ApiError && err.status === 404 && err.code === 'not_found'
            ? 'Preview is not available on this server.'
            : `Preview failed: ${describeError(err)}`,
      });
    }
  };

  const k = form.kind;
  return (
    <dialog ref={dialog} class="editor" aria-labelledby="editor-title" onClose={() => onClose(false)}>
      <form onSubmit={(e) => void save(e)} novalidate>
        <h2 id="editor-title">{tile ? `Edit ${tile.name}` : 'New tile'}</h2>
        <div class="grid2">
          <label>
            Name
            <input value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={200} />
          </label>
          <label>
            Tile kind
            <input value={kind} onInput={(e) => setKind(e.currentTarget.value)} pattern="^[a-z][a-z0-9_]*$" maxLength={50} />
          </label>
          <label>
            Unit (optional)
            <input value={unit} onInput={(e) => setUnit(e.currentTarget.value)} placeholder="percent, ms, …" maxLength={30} />
          </label>
        </div>
        <fieldset class="mode">
          <legend>Rule</legend>
          <label>
            <input type="radio" name="mode" checked={mode === 'form'} onChange={() => switchMode('form')} /> Form
          </label>
          <label>
            <input type="radio" name="mode" checked={mode === 'json'} onChange={() => switchMode('json')} /> JSON
          </label>
        </fieldset>
        {mode === 'form' ? (
          <div class="grid2">
            <label>
              Evaluation
              <select value={k} onChange={set('kind')}>
                {EVALUATION_KINDS.map((x) => (
                  <option value={x}>{KIND_TEXT[x] ?? x}</option>
                ))}
              </select>
            </label>
            <label>
              Event type
              <select value={form.type} onChange={set('type')}>
                <option value="">any</option>
                {EVENT_TYPES.map((x) => (
                  <option value={x}>{x}</option>
                ))}
              </select>
            </label>
            <label>
              Event names (comma separated)
              <input value={form.names} onInput={set('names')} placeholder="any" />
            </label>
            {k === 'window' && (
              <>
                <label>
                  Aggregate
                  <select value={form.aggregate} onChange={set('aggregate')}>
                    {WINDOW_AGGREGATES.map((x) => (
                      <option value={x}>{x}</option>
                    ))}
                  </select>
                </label>
                <label>
                  Window
                  <input value={form.window} onInput={set('window')} placeholder="5m" />
                </label>
              </>
            )}
            {(k === 'threshold' || k === 'up_down' || (k === 'window' && form.aggregate !== 'count')) && (
              <label>
                Attribute
                <input value={form.attribute} onInput={set('attribute')} placeholder="value" />
              </label>
            )}
            {(k === 'threshold' || k === 'window') && (
              <>
                <label>
                  Warning at
                  <input value={form.warning} onInput={set('warning')} inputMode="decimal" />
                </label>
                <label>
                  Critical at
                  <input value={form.critical} onInput={set('critical')} inputMode="decimal" />
                </label>
                <label>
                  Direction
                  <select value={form.direction} onChange={set('direction')}>
                    {THRESHOLD_DIRECTIONS.map((x) => (
                      <option value={x}>{x === 'above' ? 'value ≥ level is bad' : 'value ≤ level is bad'}</option>
                    ))}
                  </select>
                </label>
              </>
            )}
            {k === 'status_map' && (
              <label class="wide">
                Event name = status (ok, warning, critical), one per line
                <textarea rows={4} value={form.map} onInput={set('map')} placeholder={'deploy_started=warning\ndeploy_finished=ok\ndeploy_failed=critical'} />
              </label>
            )}
            <label>
              Stale after (optional)
              <input value={form.stale_after} onInput={set('stale_after')} placeholder="10m" />
            </label>
            <label>
              Group by (optional)
              <input value={form.group_by} onInput={set('group_by')} placeholder="host, source, …" />
            </label>
          </div>
        ) : (
          <label class="wide">
            Rule JSON
            <textarea class="code" rows={12} value={json} onInput={(e) => setJson(e.currentTarget.value)} spellcheck={false} />
          </label>
        )}
        <div class="problems" role="status" aria-live="polite">
          {parsed.problems.length === 0 ? (
            <p class="ok-text">Valid against {RULE_SCHEMA_ID.split('/').pop()}</p>
          ) : (
            <ul aria-label="Rule problems">
              {parsed.problems.map((p) => (
                <li>{p}</li>
              ))}
            </ul>
          )}
        </div>
        {services.length > 0 && (
          <fieldset>
            <legend>Notify on status change</legend>
            {services.map((s) => (
              <label class="check">
                <input
                  type="checkbox"
                  checked={attached.has(String(s.id))}
                  onChange={(e) => {
                    const next = new Set(attached);
                    if (e.currentTarget.checked) next.add(String(s.id));
                    else next.delete(String(s.id));
                    setAttached(next);
                  }}
                />{' '}
                {s.name} ({s.type})
              </label>
            ))}
          </fieldset>
        )}
        <section class="preview" aria-label="Preview">
          <div class="row">
            <label>
              Preview over the last
              <select value={hours} onChange={(e) => setHours(e.currentTarget.value)}>
                {['1', '6', '24'].map((h) => (
                  <option value={h}>{h} h</option>
                ))}
              </select>
            </label>
            <button type="button" class="secondary" onClick={() => void runPreview()} disabled={parsed.problems.length > 0}>
              Preview
            </button>
          </div>
          {ruleChanged && (
            <label class="apply-past">
              <input type="checkbox" checked={applyPast} onChange={(e) => setApplyPast(e.currentTarget.checked)} /> Apply to the past: on save, this tile's
              state and its history over the last {hours} h become what the new rule gives (as previewed here)
            </label>
          )}
          {preview && (
            <>
              <p class="preview-note" role="status">
                {preview.note}
              </p>
              {preview.groups && (
                <>
                  <p class="preview-group-counts">Groups: {preview.groups.counts}</p>
                  <ol class="preview-groups" aria-label="Worst groups">
                    {preview.groups.worst.slice(0, 10).map((g) => (
                      <li>
                        {g.key}: {STATUS_LABEL[g.status]} {formatValue(g.value, unit || undefined)}
                      </li>
                    ))}
                  </ol>
                  {preview.groups.worst.length > 10 && <p class="muted">and {preview.groups.worst.length - 10} more</p>}
                </>
              )}
              {preview.points.length > 0 && (
                <Chart
                  points={preview.points}
                  span={Number(hours) * 3600}
                  showValue={mode === 'form' ? CHARTS_VALUE.has(form.kind) : CHARTS_VALUE.has(String((parsed.rule as any)?.evaluation?.kind))}
                  version={preview.points.length}
                />
              )}
            </>
          )}
        </section>
        <p class="error" role="alert">
          {error}
        </p>
        <div class="row end">
          {tile && (
            <button type="button" class="danger" onClick={() => void remove()} disabled={busy}>
              {confirming ? 'Really delete' : 'Delete tile'}
            </button>
          )}
          <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="submit" disabled={busy}>
            {tile ? 'Save' : 'Create tile'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
