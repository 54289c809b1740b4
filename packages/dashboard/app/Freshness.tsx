import { useEffect, useState } from 'preact/hooks';
import { FRESHNESS_LIVE_WITHIN_SECONDS, type Freshness } from '@pulseboard/contracts/freshness';
import { api } from './api.ts';

/** How often the header asks the API (GET /projects/:id, `freshness`); the engine reports about every second. */
const POLL_MS = 5000;

/** "Tiles live", "Tiles 12 s behind", "Tiles 7 min behind". */
export function freshnessText(f: Freshness): string {
  if (f.status === 'unknown' || f.behind_seconds === null) return 'Freshness unknown';
  const s = f.behind_seconds;
  if (s < FRESHNESS_LIVE_WITHIN_SECONDS) return 'Tiles live';
  return s < 120 ? `Tiles ${Math.round(s)} s behind` : `Tiles ${Math.round(s / 60)} min behind`;
}

function detail(f: Freshness): string {
  const through = f.applied_through === null ? '' : `Every event accepted before ${new Date(f.applied_through).toLocaleTimeString()} is on the tiles. `;
  const pending = f.pending_events ? `${f.pending_events} events wait for the rule engine.` : 'Nothing waits for the rule engine.';
  return f.status === 'unknown' ? 'The rule engine or Kafka has not answered how far it is.' : through + pending;
}

/** The project's freshness in the header: live, or how far behind; amber from 30 s, red from 5 min (docs/api.md, Freshness). */
export function FreshnessBadge({ project }: { project: string | null }) {
  const [freshness, setFreshness] = useState<Freshness | null>(null);
  useEffect(() => {
    setFreshness(null);
    if (project === null) return;
    let current = true;
    const read = () =>
      api<{ data: { freshness?: Freshness } }>('GET', `/projects/${encodeURIComponent(project)}`).then(
        (answer) => current && setFreshness(answer.data.freshness ?? null),
        // The next round asks again; a failing API shows elsewhere (the connection, the notices).
        () => undefined,
      );
    void read();
    const timer = setInterval(() => void read(), POLL_MS);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [project]);
  if (project === null || freshness === null) return null;
  return (
    <p id="freshness" role="status" aria-live="polite" data-status={freshness.status} title={detail(freshness)}>
      {freshnessText(freshness)}
    </p>
  );
}
