'use strict';
// Pulseboard live dashboard: one WebSocket, the protocol of services/broadcast/docs/protocol.md.
const $ = (id) => document.getElementById(id);
const LABEL = { ok: 'OK', warning: 'Warning', critical: 'Critical', stale: 'Stale', unknown: 'Unknown' };
const store = sessionStorage; // the token lives here only: never in the URL, gone with the tab
let ws = null;
let retry = 500;
let tiles = new Map();
let removed = new Set(); // tiles deleted while shown: a late change for one does not bring it back
let project = null;
let position; // the last change position shown: a reconnect resumes after it

function setState(state, text) {
  const el = $('connection');
  el.dataset.state = state;
  el.textContent = text;
}


function connect() {
  if (!store.getItem('pb-token')) return;
  setState('connecting', 'Connecting…');
  ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
  ws.onopen = () => ws.send(JSON.stringify({ type: 'auth', token: store.getItem('pb-token') }));
  ws.onmessage = (e) => handle(JSON.parse(e.data));
  ws.onclose = (e) => {
    ws = null;
    if (e.code === 4001 || e.code === 4003) return signOut(e.code === 4001 ? 'That token or key was not accepted.' : 'Your credential was revoked. Sign in again.');
    if (!store.getItem('pb-token')) return;
    setState('reconnecting', `Reconnecting in ${Math.round(retry / 1000)} s…`);
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10000);
  };
}

// A reconnect with tiles on screen asks for what it missed; otherwise a snapshot.
function subscribe(resume) {
  if (!resume || position === undefined || tiles.size === 0) {
    tiles = new Map();
    position = undefined;
  }
  ws.send(JSON.stringify(position === undefined ? { type: 'subscribe', project } : { type: 'subscribe', project, since: position }));
}

function handle(m) {
  if (m.type === 'ready') {
    $('sign-in').hidden = true;
    $('board').hidden = false;
    const select = $('project');
    select.replaceChildren(...m.projects.map((p) => new Option(`${p.name} (${p.project_key})`, p.project_key)));
    const saved = store.getItem('pb-project');
    const next = m.projects.some((p) => p.project_key === saved) ? saved : m.projects[0]?.project_key ?? null;
    if (next === null) return notice('No project to show.');
    const same = next === project;
    project = next;
    select.value = project;
    subscribe(same);
  } else if (m.type === 'snapshot') {
    tiles = new Map(m.tiles.map((t) => [t.tile_id, t]));
    removed = new Set();
    keep(m.position);
    render();
  } else if ((m.type === 'tile_added' || m.type === 'tile_updated') && m.v === 1) {
    // A tile's definition: insert or replace (its state stays as it was, or unknown for a new tile).
    if (m.project !== project) return;
    const t = m.tile;
    const was = tiles.get(t.tile_id) ?? { status: 'unknown', value: null, version: 0, last_event_id: null, changed_at: null };
    removed.delete(t.tile_id);
    tiles.set(t.tile_id, { ...was, tile_id: t.tile_id, tile_name: t.tile_name, kind: t.kind, tile_position: t.position, rule: t.rule, settings: t.settings });
    render(t.tile_id);
  } else if (m.type === 'tile_removed' && m.v === 1) {
    if (m.project !== project) return;
    tiles.delete(m.tile_id);
    removed.add(m.tile_id);
    render();
  } else if (m.type === 'change') {
    const c = m.change;
    if (c.project_key !== project || removed.has(c.tile_id)) return;
    tiles.set(c.tile_id, { ...tiles.get(c.tile_id), tile_id: c.tile_id, tile_name: c.tile_name, status: c.status, value: c.value, version: c.version, last_event_id: c.event_id, changed_at: c.changed_at });
    keep(c.position);
    render(c.tile_id);
  } else if (m.type === 'subscribed') {
    retry = 500;
    keep(m.position);
    setState('live', 'Live');
    render();
  } else if (m.type === 'unsubscribed' && m.project === project) {
    // The server ends a subscription only when the project was deleted.
    tiles = new Map();
    position = undefined;
    render();
    $('project').querySelector(`option[value="${CSS.escape(m.project)}"]`)?.remove();
    setState('closed', 'Project deleted');
    notice(`Project ${m.project} was deleted; choose another.`);
  } else if (m.type === 'error') {
    notice(m.message);
  }
}

function keep(p) {
  position = p;
}

function notice(text) {
  $('notice').textContent = text;
}

function render(changed) {
  const list = $('tiles');
  // Dashboard order: the tiles' positions (from the snapshot and tile messages), then ids.
  const ordered = [...tiles.values()].sort((a, b) => (a.tile_position ?? 0) - (b.tile_position ?? 0) || a.tile_id - b.tile_id);
  const items = ordered.map((t) => {
    let li = list.querySelector(`[data-tile="${t.tile_id}"]`);
    if (!li) {
      li = document.createElement('li');
      li.dataset.tile = t.tile_id;
      li.tabIndex = 0;
      li.innerHTML = '<h2></h2><p class="status"></p><p class="value"></p><p class="time"></p>';
    }
    const status = t.status in LABEL ? t.status : 'unknown';
    li.className = `tile ${status}${t.tile_id === changed ? ' changed' : ''}`;
    li.querySelector('h2').textContent = t.tile_name;
    li.querySelector('.status').textContent = LABEL[status];
    li.querySelector('.value').textContent = t.value === null || t.value === undefined ? '—' : String(t.value);
    const at = t.changed_at ? new Date(t.changed_at) : null;
    li.querySelector('.time').textContent = at ? `changed ${at.toLocaleTimeString()}` : '';
    li.setAttribute('aria-label', `${t.tile_name}: ${LABEL[status]}, value ${li.querySelector('.value').textContent}`);
    return li;
  });
  list.replaceChildren(...items);
  $('empty').hidden = items.length > 0;
}

function signOut(message) {
  store.clear();
  project = null;
  tiles = new Map();
  if (ws) ws.close(1000);
  ws = null;
  $('board').hidden = true;
  $('sign-in').hidden = false;
  $('sign-in-error').textContent = message || '';
  setState('offline', 'Signed out');
  $('token').focus();
}

$('sign-in').addEventListener('submit', (e) => {
  e.preventDefault();
  store.setItem('pb-token', $('token').value.trim());
  $('token').value = '';
  $('sign-in-error').textContent = '';
  retry = 500;
  connect();
});
$('sign-out').addEventListener('click', () => signOut());
$('project').addEventListener('change', (e) => {
  ws?.send(JSON.stringify({ type: 'unsubscribe', project }));
  project = e.target.value;
  store.setItem('pb-project', project);
  notice('');
  subscribe(false);
});
connect();
