import WebSocket from 'ws';
import { waitFor } from '@pulseboard/test-kit';
import { broadcastServerMessageSchema, createAjv, ingestedEventSchema, tileChangeSchema } from '@pulseboard/contracts';

// Every server message is checked against the protocol's schema (the AsyncAPI document is generated from it).
const ajv = createAjv();
ajv.addSchema(tileChangeSchema);
ajv.addSchema(ingestedEventSchema);
/** Whether a server message is one broadcastServerMessageSchema describes (the fuzz suite asks too). */
export const validServerMessage = ajv.compile(broadcastServerMessageSchema);

/** A WebSocket client for tests: keeps every message and how the socket closed. */
export class TestSocket {
  readonly messages: any[] = [];
  /** Server messages the protocol's schema does not describe: any fails the test at its next wait. */
  readonly undocumented: string[] = [];
  closed: { code: number; reason: string } | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const message: unknown = JSON.parse(data.toString());
      if (!validServerMessage(message)) this.undocumented.push(`${data.toString().slice(0, 300)}: ${JSON.stringify(validServerMessage.errors?.slice(0, 3))}`);
      this.messages.push(message);
    });
    ws.on('close', (code, reason) => (this.closed = { code, reason: reason.toString() }));
  }

  /**
   * Connects to `<base>/ws`; with `headerToken` the credential goes in the
   * upgrade's Authorization header. `autoPong: false` makes a peer that never
   * answers the server's pings (one whose network went away). `localAddress`
   * plays a client on another address (127.0.0.x).
   */
  static async open(base: string, options: { headerToken?: string; autoPong?: boolean; localAddress?: string } = {}): Promise<TestSocket> {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`, {
      autoPong: options.autoPong ?? true,
      ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }),
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
    this.checkDocumented();
    let found: any;
    await waitFor(() => (found = this.messages.slice(options.from ?? 0).find(match)) !== undefined, {
      timeoutMs: options.timeoutMs ?? 10000,
      what: 'a matching WebSocket message',
      intervalMs: 10,
    });
    this.checkDocumented();
    return found;
  }

  /** Throws when the server sent a message that broadcastServerMessageSchema (packages/contracts) does not describe. */
  checkDocumented(): void {
    if (this.undocumented.length > 0)
      throw new Error(
        `broadcast sent messages its protocol schema does not describe (add them to broadcastServerMessageSchema, then pnpm asyncapi:write): ${this.undocumented.join('; ')}`,
      );
  }

  changes(): any[] {
    return this.messages.filter((m) => m.type === 'change').map((m) => m.change);
  }

  async waitClosed(timeoutMs = 10000): Promise<{ code: number; reason: string }> {
    await waitFor(() => this.closed !== undefined, { timeoutMs, what: 'the socket to close', intervalMs: 10 });
    this.checkDocumented();
    return this.closed!;
  }

  close(): void {
    this.ws.close();
  }
}
