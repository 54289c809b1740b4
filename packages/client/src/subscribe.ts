import { backoffDelay, type BackoffOptions } from './backoff.ts';
import type { components } from './generated/broadcast.ts';

/** A message of the broadcast protocol (services/broadcast/docs/protocol.md), generated from docs/asyncapi.json. */
export type ServerMessage = components['schemas']['BroadcastServerMessage'];
export type TileChangeMessage = components['schemas']['TileChange'];
export type SnapshotMessage = Extract<ServerMessage, { type: 'snapshot' }>;
/** An event as the gateway accepted it (what `GET /api/v1/events/:id` returns), from the live event tail. */
export type IngestedEvent = components['schemas']['IngestedEvent'];
/** The event tail's filters: those of `GET /api/v1/events` on type, name, severity, channel and labels (every one given). */
export type EventTailFilters = NonNullable<Extract<components['schemas']['BroadcastClientMessage'], { type: 'tail' }>['filters']>;
/** Matching events the server did not send (over its rate, or the client read too slowly): counted, never queued. */
export type SkippedMessage = Extract<ServerMessage, { type: 'skipped' }>;

/** The WebSocket API the client needs: the browser's, Node 22+'s global, or the `ws` package's. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface SubscribeOptions {
  /** The broadcast service's socket, e.g. ws://127.0.0.1:8081/ws. */
  url: string;
  /** A project key or user token (sent in the first message, never in the URL). */
  token: string;
  project: string;
  /** Resume after this position (the last one you saw); default: start with a snapshot. */
  since?: number;
  /** Each tile change once, in order, across reconnects. */
  onChange?: (change: TileChangeMessage) => void;
  /** The project's tiles: at the start, or after a reconnect that missed too much to replay. */
  onSnapshot?: (snapshot: SnapshotMessage) => void;
  /**
   * Also follow the project's events live (the protocol's event tail), with
   * these filters (`true`: every event). Each matching event goes to
   * `onEvent`; events are live only: none is replayed after a reconnect.
   */
  events?: EventTailFilters | boolean;
  onEvent?: (event: IngestedEvent) => void;
  /** The event tail's count of matching events the server skipped (rate or a slow reader). */
  onSkipped?: (skipped: SkippedMessage) => void;
  /** Every message (a change only once), for kinds the callbacks above do not cover. */
  onMessage?: (message: ServerMessage) => void;
  /** Connected and caught up (`subscribed`); `resumed` says whether missed changes were replayed. */
  onSubscribed?: (info: { position: number; resumed: boolean; reconnects: number }) => void;
  /** A refusal or a close the client will not retry (bad credential, revoked, project not found or deleted). */
  onError?: (error: SubscriptionError) => void;
  reconnect?: BackoffOptions;
  /** Default: the global WebSocket (browsers, Node 22+); on Node 20 pass `WebSocket` from the `ws` package. */
  WebSocket?: WebSocketConstructor;
}

export class SubscriptionError extends Error {
  override readonly name = 'SubscriptionError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

export interface Subscription {
  /** The last change position seen (what a resume starts after). */
  readonly position: number | undefined;
  /** Stops for good: no reconnect. */
  close(): void;
}

const tailFilters = (events: SubscribeOptions['events']): EventTailFilters | undefined =>
  events === undefined || events === false ? undefined : events === true ? {} : events;

// Closes that reconnecting cannot fix (protocol.md, "Close codes").
const FINAL_CLOSES: Record<number, string> = { 4000: 'bad_message', 4001: 'auth_failed', 4003: 'credential_revoked', 1009: 'message_too_big' };

/**
 * Follows one project's tile changes (and, with `events`, its events) over the broadcast WebSocket. On any
 * other close it reconnects with capped, jittered backoff and subscribes with
 * `since` = the last position seen, so each change is delivered once and in
 * order (a repeat, by position, is dropped).
 */
export function subscribe(options: SubscribeOptions): Subscription {
  const Ctor = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (Ctor === undefined) throw new Error('no WebSocket: pass `WebSocket` (e.g. from the `ws` package on Node 20)');
  let position = options.since;
  let stopped = false;
  let socket: WebSocketLike | undefined;
  let failures = 0;
  let reconnects = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const filters = tailFilters(options.events);

  const fail = (code: string, message: string) => {
    stopped = true;
    socket?.close(1000);
    options.onError?.(new SubscriptionError(code, message));
  };

  const connect = () => {
    const ws = new Ctor(options.url);
    socket = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: 'auth', token: options.token }));
    ws.onmessage = (event) => {
      let message: ServerMessage;
      try {
        message = JSON.parse(typeof event.data === 'string' ? event.data : new TextDecoder().decode(event.data as ArrayBuffer)) as ServerMessage;
      } catch {
        return;
      }
      switch (message.type) {
        case 'ready':
          ws.send(JSON.stringify({ type: 'subscribe', project: options.project, ...(position === undefined ? {} : { since: position }) }));
          if (filters !== undefined)
            ws.send(JSON.stringify({ type: 'tail', v: 1, project: options.project, ...(Object.keys(filters).length === 0 ? {} : { filters }) }));
          break;
        case 'event':
          if (message.project === options.project) options.onEvent?.(message.event);
          break;
        case 'skipped':
          if (message.project === options.project) options.onSkipped?.(message);
          break;
        case 'untailed':
          if (message.reason === 'project_deleted') fail('project_deleted', `project ${message.project} was deleted`);
          break;
        case 'change':
          if (message.change.project_key !== options.project) return;
          if (position !== undefined && message.change.position <= position) return;
          position = message.change.position;
          options.onChange?.(message.change);
          break;
        case 'snapshot':
          position = message.position;
          options.onSnapshot?.(message);
          break;
        case 'subscribed':
          position = Math.max(position ?? 0, message.position);
          failures = 0;
          options.onSubscribed?.({ position: message.position, resumed: message.resumed, reconnects });
          break;
        case 'error':
          if (message.code === 'project_not_found') fail(message.code, message.message);
          break;
        case 'unsubscribed':
          if (message.reason === 'project_deleted') fail('project_deleted', `project ${message.project} was deleted`);
          break;
      }
      options.onMessage?.(message);
    };
    ws.onerror = () => undefined; // a close follows
    ws.onclose = (event) => {
      if (socket !== ws || stopped) return;
      const final = FINAL_CLOSES[event.code];
      if (final !== undefined) return fail(final, event.reason || `closed with ${event.code}`);
      const delay = backoffDelay(failures++, { baseMs: 200, maxMs: 5000, ...options.reconnect });
      timer = setTimeout(() => {
        reconnects++;
        connect();
      }, delay);
    };
  };
  connect();

  return {
    get position() {
      return position;
    },
    close() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      socket?.close(1000);
    },
  };
}
