import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The kernel's ephemeral range: where listen(0) (every freePort()) and outgoing connections take their ports. */
export function ephemeralRange(): { low: number; high: number } {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return { low: low!, high: high! };
  } catch {
    // not Linux: IANA's dynamic range, which macOS and Windows use
  }
  return { low: 49152, high: 65535 };
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free port for a server that a test starts later, or stops and starts
 * again on the same address (a private broker): outside the ephemeral range,
 * so while it is unbound no listen(0) elsewhere can be handed it. A listen(0)
 * port can be: Linux hands listen(0) the odd ports of the range's lower half
 * (about 7,000 here), every test server of the suite's other worker draws
 * from them, and one that drew a stopped private broker's port (after 2,431
 * listen(0) calls, in a test of it) made the restart fail with "port … is
 * taken by another process"; a taken controller port makes the broker die on
 * start-up ("Socket server failed to bind … Address already in use"). freePort()
 * is this since a Redis Cluster node lost its port the same way in CI.
 */
export async function stablePort(exclude: readonly number[] = []): Promise<number> {
  const { low, high } = ephemeralRange();
  // Below the range if there is room for it, else above it.
  const [from, to] = low - 1024 >= 10_000 ? [Math.max(10_000, low - 12_000), low - 1] : [high + 1, 65_535];
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = from + Math.floor(Math.random() * (to - from + 1));
    if (!exclude.includes(port) && (await bindable(port))) return port;
  }
  throw new Error(`stablePort: no free port in ${from}-${to} after 200 tries`);
}
