/** What the heartbeat needs of a connection: whether it answered the last ping, and its socket. */
export interface Beating {
  alive: boolean;
  readonly ws: { ping(): void; terminate(): void };
}

/** One beat: a peer that did not answer the last ping (no pong set `alive` again) is gone; the others are pinged. */
export function beat(connections: Iterable<Beating>): void {
  for (const c of connections) {
    if (!c.alive) {
      c.ws.terminate();
      continue;
    }
    c.alive = false;
    c.ws.ping();
  }
}

/** Beats every `intervalMs`; answers the function that stops it. */
export function startHeartbeat(connections: () => Iterable<Beating>, intervalMs: number): () => void {
  const timer = setInterval(() => beat(connections()), intervalMs);
  return () => clearInterval(timer);
}
