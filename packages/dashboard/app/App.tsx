import { useEffect, useReducer, useState } from 'preact/hooks';
import type { Refusals, Tile } from './api.ts';
import { Board } from './Board.tsx';
import { live, type Range } from './live.ts';
import { Notifications, type Service } from './Notifications.tsx';
import { TileEditor } from './TileEditor.tsx';
import { Tail } from './Tail.tsx';
import { FreshnessBadge } from './Freshness.tsx';

type View = 'tiles' | 'events' | 'notifications';

function SignIn() {
  const [token, setToken] = useState('');
  return (
    <form
      id="sign-in"
      autocomplete="off"
      onSubmit={(e) => {
        e.preventDefault();
        live.signIn(token);
        setToken('');
      }}
    >
      <label for="token">User token or project key</label>
      <input
        id="token"
        name="token"
        type="password"
        required
        autocomplete="off"
        spellcheck={false}
        value={token}
        onInput={(e) => setToken(e.currentTarget.value)}
        autoFocus
      />
      <button type="submit">Sign in</button>
      <p id="sign-in-error" role="alert">
        {live.signInError}
      </p>
    </form>
  );
}

/** Why a project's tiles may stand still: its events are being refused by a limit. */
function RefusalBanner({ refusals }: { refusals: Refusals }) {
  const last = refusals.last;
  const what = last === null ? '' : last.status === 402 ? 'monthly quota used up (402)' : `rate limit (429)`;
  const until = last?.status === 402 ? 'until the quota resets next month or is raised' : 'until the senders slow down or the limit is raised';
  return (
    <div id="refusals" class="refusals" role="status">
      <strong>
        Events to {refusals.project_key} are being refused: {what}.
      </strong>{' '}
      {refusals.count} {refusals.count === 1 ? 'request' : 'requests'} refused in the last 5 minutes
      {refusals.rate_limited > 0 && refusals.quota_exceeded > 0 ? ` (${refusals.rate_limited} by a rate limit, ${refusals.quota_exceeded} by the quota)` : ''}
      {last !== null && (
        <>
          ; the latest at {new Date(last.at).toLocaleTimeString()}: {last.message}
        </>
      )}
      . Tiles stand still {until} (PUT /api/v1/projects/{refusals.project_key}).
    </div>
  );
}

export function App() {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [view, setView] = useState<View>('tiles');
  const [editing, setEditing] = useState<Tile | null | 'new'>(null);
  const [services, setServices] = useState<Service[]>([]);
  // The charts' window slides with the clock: every 15 s is finer than a pixel of an hour.
  const [tick, setTick] = useState(0);

  useEffect(() => {
    const off = live.subscribe(() => rerender(undefined));
    live.connect();
    const timer = setInterval(() => setTick((t) => t + 1), 15000);
    // Refusals are counted per minute: every 10 s is soon enough to say why tiles stopped.
    const refusals = setInterval(() => void live.refreshRefusals(), 10000);
    return () => {
      off();
      clearInterval(timer);
      clearInterval(refusals);
    };
  }, []);

  const userToken = live.kind === 'user';
  return (
    <>
      <header>
        <h1>Pulseboard</h1>
        {live.signedIn && <FreshnessBadge project={live.project} />}
        <p id="connection" role="status" aria-live="polite" data-state={live.conn.state}>
          {live.conn.text}
        </p>
      </header>
      <main>
        {!live.signedIn ? (
          <SignIn />
        ) : (
          <section id="board">
            <div class="toolbar">
              <label for="project">Project</label>
              <select id="project" value={live.project ?? ''} onChange={(e) => live.chooseProject(e.currentTarget.value)}>
                {live.projects.map((p) => (
                  <option value={p.project_key}>{`${p.name} (${p.project_key})`}</option>
                ))}
              </select>
              <button id="sign-out" type="button" class="secondary" onClick={() => live.signOut()}>
                Sign out
              </button>
            </div>
            <nav aria-label="Sections" class="tabs">
              {(
                [
                  ['tiles', 'Tiles'],
                  ['events', 'Live events'],
                  ['notifications', 'Notifications'],
                ] as const
              ).map(([v, label]) => (
                <button type="button" class="tab" aria-current={view === v ? 'page' : undefined} onClick={() => setView(v)}>
                  {label}
                </button>
              ))}
            </nav>
            <p id="notice" role="alert">
              {live.notice}
            </p>
            {live.refusals && <RefusalBanner refusals={live.refusals} />}
            {view === 'tiles' && (
              <>
                <div class="toolbar">
                  <fieldset class="range">
                    <legend>Chart range</legend>
                    {(['hour', 'day'] as Range[]).map((r) => (
                      <label>
                        <input type="radio" name="range" checked={live.range === r} onChange={() => live.setRange(r)} /> Last {r}
                      </label>
                    ))}
                  </fieldset>
                  <button type="button" onClick={() => setEditing('new')} disabled={!live.project}>
                    New tile
                  </button>
                </div>
                <Board live={live} tick={tick} editable={true} onEdit={(t) => setEditing(t)} />
              </>
            )}
            {view === 'events' && <Tail live={live} />}
            {/* Mounted hidden while tiles show: the editor offers the services to attach. */}
            {userToken && (
              <div hidden={view !== 'notifications'}>
                <Notifications onServices={setServices} />
              </div>
            )}
            {view === 'notifications' && !userToken && <p>Notification services belong to an account: sign in with a user token to manage them.</p>}
          </section>
        )}
      </main>
      {editing !== null && live.project && (
        <TileEditor
          project={live.project}
          tile={editing === 'new' ? null : editing}
          services={services}
          onClose={(changed) => {
            setEditing(null);
            if (changed) void live.refreshTiles();
          }}
        />
      )}
    </>
  );
}
