// A grouped tile's groups (rule `group_by`, docs/api.md "Grouped tiles"): its counts per
// status and its worst groups, read from GET /tiles/:id/state and kept current by the
// groups' own change messages (which never touch the tile's own status and value).
import { api, type Status } from './api.ts';
import { statusOf } from './format.ts';

export interface GroupRow {
  key: string;
  status: Status;
  value: unknown;
  version: number;
  changed_at: string | null;
}

export interface TileGroups {
  by: string;
  counts: Partial<Record<Status, number>>;
  refused: number;
  rows: GroupRow[];
  /** Pages of `rows` read so far (100 groups a page), and how many the server has. */
  pages: number;
  totalPages: number;
}

/** The engine's order (packages/rules grouping.ts): worst status first, then by key. */
export const WORST_FIRST: readonly Status[] = ['critical', 'warning', 'stale', 'unknown', 'ok'];
const rank = (s: Status) => WORST_FIRST.indexOf(s);
const byWorst = (a: GroupRow, b: GroupRow) => rank(a.status) - rank(b.status) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

export const PER_PAGE = 100;

interface StateResponse {
  data: {
    group_by?: string;
    group_counts?: Partial<Record<Status, number>>;
    groups_refused?: number;
    groups?: GroupRow[];
    groups_meta?: { current_page: number; total_pages: number };
  };
}

/** Reads the first `pages` pages of a grouped tile's groups; undefined for a tile that is not grouped. */
export async function readGroups(id: string, pages = 1): Promise<TileGroups | undefined> {
  let out: TileGroups | undefined;
  for (let page = 1; page <= pages; page++) {
    const { data } = await api<StateResponse>('GET', `/tiles/${id}/state?page=${page}&per_page=${PER_PAGE}`);
    if (data.group_by === undefined) return undefined;
    const rows = (data.groups ?? []).map((g) => ({ ...g, status: statusOf(g.status) }));
    out = {
      by: data.group_by,
      counts: data.group_counts ?? {},
      refused: data.groups_refused ?? 0,
      rows: [...(out?.rows ?? []), ...rows],
      pages: page,
      totalPages: data.groups_meta?.total_pages ?? 1,
    };
    if (page >= out.totalPages) break;
  }
  return out;
}

/**
 * One group's change applied to what the page holds: its row replaced (or added), the
 * counts moved from its old status to its new one. An older version than shown is ignored.
 */
export function applyGroupChange(groups: TileGroups, change: GroupRow): TileGroups {
  const was = groups.rows.find((r) => r.key === change.key);
  if (was && was.version >= change.version) return groups;
  const counts = { ...groups.counts };
  if (was) counts[was.status] = Math.max(0, (counts[was.status] ?? 0) - 1);
  counts[change.status] = (counts[change.status] ?? 0) + 1;
  // A group the page has not read (past the pages shown, or new) is counted; the
  // periodic re-read corrects a count for a group that was on an unread page.
  const rows = [...groups.rows.filter((r) => r.key !== change.key), change].sort(byWorst);
  return { ...groups, counts, rows };
}

/** "3 critical · 1 warning · 36 ok", worst first. */
export function countsText(counts: Partial<Record<Status, number>>): string {
  const parts = WORST_FIRST.filter((s) => (counts[s] ?? 0) > 0).map((s) => `${counts[s]} ${s}`);
  return parts.length > 0 ? parts.join(' · ') : 'no groups yet';
}
