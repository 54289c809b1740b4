import type { Status, Tile } from './api.ts';

export const STATUS_LABEL: Record<Status, string> = { ok: 'OK', warning: 'Warning', critical: 'Critical', stale: 'Stale', unknown: 'Unknown' };
/** A shape per status as well as a colour: status never by colour alone. */
export const STATUS_MARK: Record<Status, string> = { ok: '●', warning: '▲', critical: '■', stale: '◆', unknown: '?' };
export const STATUS_COLOR: Record<Status, string> = { ok: '#1d7a3a', warning: '#b07800', critical: '#b3261e', stale: '#6b5ca5', unknown: '#8a8f98' };

export function statusOf(value: unknown): Status {
  return typeof value === 'string' && value in STATUS_LABEL ? (value as Status) : 'unknown';
}

const UNIT_SUFFIX: Record<string, string> = { percent: '%', '%': '%', ms: ' ms', s: ' s', bytes: ' B', count: '' };

/** The tile's unit: its settings' `unit`, else the last events' `unit` attribute as the value carried it. */
export function unitOf(tile: Tile | undefined, fromEvents?: string): string | undefined {
  const unit = tile?.settings?.unit;
  return typeof unit === 'string' && unit !== '' ? unit : fromEvents;
}

export function formatValue(value: unknown, unit?: string): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') {
    const text = Number.isInteger(value) ? String(value) : value.toFixed(Math.abs(value) < 10 ? 2 : 1);
    if (unit === undefined) return text;
    return `${text}${UNIT_SUFFIX[unit] ?? ` ${unit}`}`;
  }
  if (typeof value === 'boolean') return value ? 'up' : 'down';
  if (typeof value === 'object') {
    // A tile value may carry its number and unit: { value, unit }.
    const v = value as { value?: unknown; unit?: unknown };
    if ('value' in v) return formatValue(v.value, typeof v.unit === 'string' ? v.unit : unit);
    return JSON.stringify(value);
  }
  return String(value);
}

/** A time, with its date when it is not today. */
export function formatWhen(iso: string | null | undefined, now = new Date()): string {
  if (!iso) return '';
  const at = new Date(iso);
  const sameDay = at.toDateString() === now.toDateString();
  return sameDay ? at.toLocaleTimeString() : at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** A number to chart, when the value is one. */
export function numeric(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (value && typeof value === 'object' && typeof (value as { value?: unknown }).value === 'number') return (value as { value: number }).value;
  return null;
}

export const CHARTS_VALUE = new Set(['threshold', 'window']);
export const KIND_LABEL: Record<string, string> = { threshold: 'Gauge', window: 'Window', status_map: 'Status', up_down: 'Up/down' };
