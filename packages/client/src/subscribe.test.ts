import { describe, expect, it } from 'vitest';
import { subscribe, type IngestedEvent, type SkippedMessage, type SubscriptionError, type WebSocketLike } from './subscribe.ts';

/** A socket driven by the test: what the client sends is recorded, what the server says is pushed with `receive`. */
class ScriptedSocket implements WebSocketLike {
  static last: ScriptedSocket | undefined;
  readyState = 1;
  sent: unknown[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor(readonly url: string) {
    ScriptedSocket.last = this;
    queueMicrotask(() => this.onopen?.({}));
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  close(): void {
    this.readyState = 3;
  }
  receive(message: object): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

const event = (id: number): IngestedEvent => ({
  id,
  project_key: 'web',
  account_id: 1,
  type: 'error',
  name: 'exception',
  timestamp: '2026-01-01T00:00:00Z',
  received_at: '2026-01-01T00:00:00Z',
  attributes: {},
});

async function opened(options: Parameters<typeof subscribe>[0]) {
  const sub = subscribe({ ...options, WebSocket: ScriptedSocket });
  await new Promise((resolve) => setTimeout(resolve, 0));
  const socket = ScriptedSocket.last!;
  socket.receive({ type: 'ready', kind: 'project', projects: [{ project_key: 'web', name: 'Web' }] });
  return { sub, socket };
}

describe('subscribe() with the event tail', () => {
  it('asks for the tail with its filters after subscribing, and hands events and skips of its project to their callbacks', async () => {
    const events: IngestedEvent[] = [];
    const skipped: SkippedMessage[] = [];
    const { socket } = await opened({
      url: 'ws://x/ws',
      token: 'evk_t',
      project: 'web',
      events: { type: 'error', label: ['prod'] },
      onEvent: (e) => events.push(e),
      onSkipped: (s) => skipped.push(s),
    });
    expect(socket.sent).toEqual([
      { type: 'auth', token: 'evk_t' },
      { type: 'subscribe', project: 'web' },
      { type: 'tail', v: 1, project: 'web', filters: { type: 'error', label: ['prod'] } },
    ]);
    socket.receive({ type: 'event', v: 1, project: 'web', event: event(1) });
    socket.receive({ type: 'event', v: 1, project: 'other', event: event(2) });
    socket.receive({ type: 'skipped', v: 1, project: 'web', count: 3, reason: 'rate' });
    expect(events.map((e) => e.id)).toEqual([1]);
    expect(skipped).toEqual([{ type: 'skipped', v: 1, project: 'web', count: 3, reason: 'rate' }]);
  });

  it('`events: true` tails without filters; without `events` no tail is asked for', async () => {
    expect((await opened({ url: 'ws://x/ws', token: 't', project: 'web', events: true })).socket.sent[2]).toEqual({ type: 'tail', v: 1, project: 'web' });
    expect((await opened({ url: 'ws://x/ws', token: 't', project: 'web' })).socket.sent).toHaveLength(2);
  });

  it('ends with project_deleted when the tail is ended by the project’s deletion', async () => {
    const errors: SubscriptionError[] = [];
    const { socket } = await opened({ url: 'ws://x/ws', token: 't', project: 'web', events: true, onError: (e) => errors.push(e) });
    socket.receive({ type: 'untailed', v: 1, project: 'web', reason: 'project_deleted' });
    expect(errors.map((e) => e.code)).toEqual(['project_deleted']);
  });
});
