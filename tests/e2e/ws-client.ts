import WebSocket from 'ws';
import { waitFor } from '@pulseboard/test-kit';

/** A WebSocket client for tests: keeps every message and how the socket closed. */
export class TestSocket {
  readonly messages: any[] = [];
  closed: { code: number; reason: string } | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.messages.push(JSON.parse(data.toString())));
    ws.on('close', (code, reason) => (this.closed = { code, reason: reason.toString() }));
  }

  /**
   * Connects to `<base>/ws`; with `headerToken` the credential goes in the
   * upgrade's Authorization header. `autoPong: false` makes a peer that never
   * answers the server's pings (one whose network went away).
   */
  static async open(base: string, options: { headerToken?: string; autoPong?: boolean } = {}): Promise<TestSocket> {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`, {
      autoPong: options.autoPong ?? true,
      ...(options.headerToken === undefined ? {} : { headers: { authorization: `Bearer ${options.headerToken}` } }),
    });
    const socket = new TestSocket(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
    return socket;
  }

  send(message: unknown): void {
    this.ws.send(JSON.stringify(message));
  }

  /** The first message (from `from` on) that matches; waits for it. */
  async next(match: (m: any) => boolean, options: { from?: number; timeoutMs?: number } = {}): Promise<any> {
    let found: any;
    await waitFor(() => (found = this.messages.slice(options.from ?? 0).find(match)) !== undefined, { timeoutMs: options.timeoutMs ?? 10000, what: 'a matching WebSocket message', intervalMs: 10 });
    return found;
  }

  changes(): any[] {
    return this.messages.filter((m) => m.type === 'change').map((m) => m.change);
  }

  async waitClosed(timeoutMs = 10000): Promise<{ code: number; reason: string }> {
    await waitFor(() => this.closed !== undefined, { timeoutMs, what: 'the socket to close', intervalMs: 10 });
    return this.closed!;
  }

  close(): void {
    this.ws.close();
  }
}
