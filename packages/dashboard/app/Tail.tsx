import type { Live } from './live.ts';

/** The live event tail: drawn once the broadcast protocol offers it (issue 28 item 2). */
export function Tail(_props: { live: Live }) {
  return (
    <section class="panel" aria-labelledby="tail-title">
      <h2 id="tail-title">Live events</h2>
      <p>This broadcast service does not offer the live event tail yet.</p>
    </section>
  );
}
