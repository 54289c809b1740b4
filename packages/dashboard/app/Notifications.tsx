import { useEffect, useState } from 'preact/hooks';
import { api, describeError, listAll } from './api.ts';
import { formatWhen } from './format.ts';

export interface Service {
  id: string | number;
  name: string;
  type: 'webhook' | 'slack' | 'email';
  config: Record<string, unknown>;
  created_at: string;
}
interface Delivery {
  id: string;
  status: string;
  attempts: number;
  last_error: string | null;
  response_status: number | null;
  tile_id: string | number | null;
  created_at: string;
  delivered_at: string | null;
}
interface Outcome {
  delivery_id: string;
  status: string;
  attempts: number;
  response_status: number | null;
}

const TYPES = { webhook: 'Webhook', slack: 'Slack', email: 'Email' } as const;

function summary(s: Service): string {
  if (s.type === 'email') return ((s.config.to as string[]) ?? []).join(', ');
  return String(s.config.url ?? s.config.webhook_url ?? '');
}

function ServiceForm({ service, onDone }: { service: Service | null; onDone: (changed: boolean, note?: string) => void }) {
  const [name, setName] = useState(service?.name ?? '');
  const [type, setType] = useState<Service['type']>(service?.type ?? 'webhook');
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [to, setTo] = useState(service?.type === 'email' ? ((service.config.to as string[]) ?? []).join(', ') : '');
  const [error, setError] = useState('');
  const editing = service !== null;

  // This handler and the ones below show their own failures: the events that call them (`void`) ignore the promise.
  const submit = async (e: Event) => {
    e.preventDefault();
    setError('');
    // Secret fields come back masked: an edit sends a config only when one is typed again.
    let config: Record<string, unknown> | undefined;
    if (type === 'email')
      config = {
        to: to
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      };
    else if (url.trim()) config = type === 'slack' ? { webhook_url: url.trim() } : { url: url.trim(), ...(secret.trim() ? { secret: secret.trim() } : {}) };
    if (!editing && config === undefined) return setError(type === 'slack' ? 'A Slack webhook URL is required.' : 'A URL is required.');
    try {
      const body = editing ? { name, ...(config ? { config, type } : {}) } : { name, type, config };
      const res = await api<{ data: Service }>(editing ? 'PUT' : 'POST', editing ? `/notifications/${service.id}` : '/notifications', body);
      const made = res.data.config.secret;
      onDone(true, typeof made === 'string' && made.startsWith('whsec_') && !made.includes('*') ? `Signing secret (shown once): ${made}` : undefined);
    } catch (err) {
      setError(describeError(err));
    }
  };

  return (
    <form class="service-form" onSubmit={(e) => void submit(e)} aria-label={editing ? `Edit ${service.name}` : 'Add a notification service'}>
      <div class="grid2">
        <label>
          Name
          <input value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={200} />
        </label>
        <label>
          Type
          <select value={type} onChange={(e) => setType(e.currentTarget.value as Service['type'])} disabled={editing}>
            {Object.entries(TYPES).map(([value, label]) => (
              <option value={value}>{label}</option>
            ))}
          </select>
        </label>
        {type === 'email' ? (
          <label class="wide">
            Recipients (comma separated)
            <input value={to} onInput={(e) => setTo(e.currentTarget.value)} type="text" inputMode="email" />
          </label>
        ) : (
          <>
            <label class="wide">
              {type === 'slack' ? 'Slack incoming webhook URL' : 'Webhook URL'}
              {editing ? ' (leave empty to keep)' : ''}
              <input value={url} onInput={(e) => setUrl(e.currentTarget.value)} type="url" placeholder="https://" />
            </label>
            {type === 'webhook' && (
              <label class="wide">
                Signing secret (optional, whsec_…; one is made when empty)
                <input value={secret} onInput={(e) => setSecret(e.currentTarget.value)} autocomplete="off" />
              </label>
            )}
          </>
        )}
      </div>
      <p class="error" role="alert">
        {error}
      </p>
      <div class="row end">
        <button type="button" class="secondary" onClick={() => onDone(false)}>
          Cancel
        </button>
        <button type="submit">{editing ? 'Save service' : 'Add service'}</button>
      </div>
    </form>
  );
}

function Deliveries({ service }: { service: Service }) {
  const [rows, setRows] = useState<Delivery[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    api<{ data: Delivery[] }>('GET', `/notifications/${service.id}/deliveries?per_page=20`).then(
      (r) => setRows(r.data),
      (e) => setError(describeError(e)),
    );
  }, [service.id]);
  if (error) return <p class="error">{error}</p>;
  if (rows === null) return <p>Loading deliveries…</p>;
  if (rows.length === 0) return <p>No deliveries yet.</p>;
  return (
    <table class="deliveries" aria-label={`Deliveries of ${service.name}`}>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Status</th>
          <th scope="col">HTTP</th>
          <th scope="col">Attempts</th>
          <th scope="col">Tile</th>
          <th scope="col">Error</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((d) => (
          <tr>
            <td>{formatWhen(d.created_at)}</td>
            <td class={`delivery-${d.status}`}>{d.status}</td>
            <td>{d.response_status ?? '—'}</td>
            <td>{d.attempts}</td>
            <td>{d.tile_id ?? 'test'}</td>
            <td>{d.last_error ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Notifications({ onServices }: { onServices: (services: Service[]) => void }) {
  const [services, setServices] = useState<Service[] | null>(null);
  const [error, setError] = useState('');
  const [note, setNote] = useState('');
  const [editing, setEditing] = useState<Service | null | 'new'>(null);
  const [results, setResults] = useState<Record<string, string>>({});
  const [open, setOpen] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);

  const load = async () => {
    try {
      const list = await listAll<Service>('/notifications');
      setServices(list);
      onServices(list);
    } catch (err) {
      setError(
        (err as { code?: string }).code === 'user_token_required'
          ? 'Notification services belong to an account: sign in with a user token to manage them.'
          : describeError(err),
      );
    }
  };
  useEffect(() => {
    void load();
  }, []);

  const test = async (s: Service) => {
    setResults({ ...results, [s.id]: 'Sending…' });
    try {
      const res = await api<{ data: Outcome }>('POST', `/notifications/${s.id}/send`);
      const o = res.data;
      setResults((r) => ({
        ...r,
        [s.id]: `Test ${o.status}${o.response_status ? ` (HTTP ${o.response_status})` : ''} after ${o.attempts} attempt${o.attempts === 1 ? '' : 's'}`,
      }));
      if (open === String(s.id)) setOpen(null);
    } catch (err) {
      setResults((r) => ({ ...r, [s.id]: `Test failed: ${describeError(err)}` }));
    }
  };

  const remove = async (s: Service) => {
    if (confirming !== String(s.id)) return setConfirming(String(s.id));
    try {
      await api('DELETE', `/notifications/${s.id}`);
      setConfirming(null);
      await load();
    } catch (err) {
      setError(describeError(err));
    }
  };

  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  return (
    <section aria-labelledby="notifications-title" class="panel">
      <div class="row">
        <h2 id="notifications-title">Notification services</h2>
        {editing === null && (
          <button type="button" onClick={() => setEditing('new')}>
            Add service
          </button>
        )}
      </div>
      {note && (
        <p class="note" role="status">
          {note}
        </p>
      )}
      {editing !== null && (
        <ServiceForm
          service={editing === 'new' ? null : editing}
          onDone={(changed, made) => {
            setEditing(null);
            setNote(made ?? '');
            if (changed) void load();
          }}
        />
      )}
      {services === null ? (
        <p>Loading…</p>
      ) : services.length === 0 ? (
        <p>No notification services yet.</p>
      ) : (
        <ul class="services" aria-label="Notification services">
          {services.map((s) => (
            <li class="service" data-service={String(s.id)}>
              <div class="row">
                <h3>{s.name}</h3>
                <span class="kind">{TYPES[s.type]}</span>
              </div>
              <p class="muted">{summary(s)}</p>
              <div class="row">
                <button type="button" class="secondary" onClick={() => void test(s)}>
                  Send test
                </button>
                <button
                  type="button"
                  class="secondary"
                  aria-expanded={open === String(s.id)}
                  onClick={() => setOpen(open === String(s.id) ? null : String(s.id))}
                >
                  Delivery log
                </button>
                <button type="button" class="secondary" onClick={() => setEditing(s)}>
                  Edit
                </button>
                <button type="button" class="danger" onClick={() => void remove(s)}>
                  {confirming === String(s.id) ? 'Really delete' : 'Delete'}
                </button>
              </div>
              {results[s.id] && (
                <p class="test-result" role="status">
                  {results[s.id]}
                </p>
              )}
              {open === String(s.id) && <Deliveries service={s} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
