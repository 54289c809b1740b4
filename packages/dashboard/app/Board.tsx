import type { VNode } from 'preact';
import { useRef } from 'preact/hooks';
import type { Tile, TileState } from './api.ts';
import { live, type Live } from './live.ts';
import { TileCard } from './TileCard.tsx';

interface Props {
  live: Live;
  tick: number;
  editable: boolean;
  onEdit: (tile: Tile) => void;
}

/** A tile not evaluated yet is unknown; kept, so its card is not drawn again each frame. */
function stateOf(board: Live, tile: Tile): TileState {
  const id = String(tile.id);
  let state = board.states.get(id);
  if (!state) board.states.set(id, (state = { tile_id: tile.id, tile_name: tile.name, status: 'unknown', value: null, version: 0, changed_at: null }));
  return state;
}

/**
 * The tile grid. A card is rendered again only when its tile changed (or the
 * clock, range or order moved): the same vnode is handed back otherwise, which
 * Preact skips; 100 tiles changing every second cost what the changed cards cost.
 */
export function Board({ live: board, tick, editable, onEdit }: Props) {
  const cache = useRef(new Map<string, { key: string; tile: Tile | undefined; state: TileState; node: VNode; version: number }>());
  const defined = board.tiles;
  const ids = new Set(defined.map((t) => String(t.id)));
  // Tiles in their order; states of tiles not read from the API yet come last.
  const rows: Array<{ tile: Tile | undefined; state: TileState }> = defined.map((tile) => ({
    tile,
    state: stateOf(board, tile),
  }));
  for (const [id, state] of board.states) if (!ids.has(id)) rows.push({ tile: undefined, state });

  const move = (tile: Tile, by: number) => {
    const list = [...defined];
    const at = list.indexOf(tile);
    list.splice(at, 1);
    list.splice(at + by, 0, tile);
    void live.saveOrder(list);
  };

  const nodes = rows.map(({ tile, state }, index) => {
    const id = String(state.tile_id);
    const changed = board.changed.has(id);
    const prior = cache.current.get(id);
    const version = (prior?.version ?? 0) + (changed ? 1 : 0);
    // Definitions and states are replaced, never changed in place: identity says whether they moved.
    const key = `${version}|${tick}|${board.range}|${editable}|${index}|${rows.length}|${board.units.get(id)}`;
    if (prior && prior.key === key && prior.tile === tile && prior.state === state) return prior.node;
    const node = (
      <TileCard
        key={id}
        tile={tile}
        eventUnit={board.units.get(id)}
        state={state}
        groups={board.groups.get(id)}
        points={board.history.get(id) ?? []}
        range={board.range}
        version={version * 1e6 + tick}
        changed={changed}
        editable={editable}
        first={index === 0}
        last={index === defined.length - 1}
        onEdit={onEdit}
        onMove={move}
      />
    );
    cache.current.set(id, { key, tile, state, node, version });
    return node;
  });

  return (
    <>
      <ul id="tiles" aria-label="Tiles">
        {nodes}
      </ul>
      {nodes.length === 0 && <p id="empty">This project has no tiles yet.</p>}
    </>
  );
}
