import { ReadApi, type ReadApiOptions } from './read-api.ts';
import { EventSender, type FlushResult, type PulseboardEvent, type SenderErrorListener, type SenderOptions, type SenderStats } from './sender.ts';
import { subscribe, type SubscribeOptions, type Subscription } from './subscribe.ts';

export {
  EventSender,
  type PulseboardEvent,
  type SenderOptions,
  type SenderStats,
  type SenderHooks,
  type SentOutcome,
  type FailedOutcome,
  type SendFailure,
  type EventFailure,
  type FlushResult,
  type SenderLogger,
  type SenderErrorListener,
} from './sender.ts';
export { ReadApi, queryString, type ReadApiOptions, type Query, type RequestBody, type Success } from './read-api.ts';
export {
  subscribe,
  SubscriptionError,
  type ServerMessage,
  type SnapshotMessage,
  type Subscription,
  type SubscribeOptions,
  type TileChangeMessage,
  type WebSocketConstructor,
  type WebSocketLike,
  type EventTailFilters,
  type IngestedEvent,
  type SkippedMessage,
} from './subscribe.ts';
export { PulseboardApiError, PulseboardNetworkError, ClientClosedError, isRetryable, type ErrorCode, type ErrorDetails } from './errors.ts';
export { backoffDelay, parseRetryAfter, type BackoffOptions } from './backoff.ts';
export type { components, operations, paths } from './generated/openapi.ts';

export interface PulseboardClientOptions extends Omit<SenderOptions, 'apiKey'>, Pick<ReadApiOptions, 'readAttempts'> {
  /** A project key (`evk_…`): sends events, reads its project. */
  apiKey?: string;
  /** A user token (`evu_…`) for the read API and subscriptions; default: `apiKey`. */
  token?: string;
  /** The broadcast service's WebSocket URL (e.g. ws://127.0.0.1:8081/ws), for `subscribe()`. */
  broadcastUrl?: string;
}

/**
 * Pulseboard's client: `send()` (batched, gzipped, retried, idempotent),
 * `flush()`/`close()`, the read API (`events`, `projects`, `tiles`,
 * `notifications`, `rateLimits()`) and `subscribe()` to live tile changes
 * (and, with `events`, the project's live events).
 *
 * Events not stored are never silent: `on('error', ...)` gets each failure;
 * without a listener (or the matching hook) the logger (default `console`)
 * prints it; `flush()`/`close()` resolve with them.
 */
export class PulseboardClient extends ReadApi {
  private sender: EventSender | undefined;
  private readonly errorListeners = new Set<SenderErrorListener>();

  constructor(private readonly clientOptions: PulseboardClientOptions) {
    const token = clientOptions.token ?? clientOptions.apiKey;
    if (token === undefined) throw new Error('PulseboardClient needs an apiKey (to send) or a token (to read)');
    super({
      url: clientOptions.url,
      token,
      ...(clientOptions.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: clientOptions.requestTimeoutMs }),
      ...(clientOptions.readAttempts === undefined ? {} : { readAttempts: clientOptions.readAttempts }),
      ...(clientOptions.fetch === undefined ? {} : { fetch: clientOptions.fetch }),
    });
  }

  /** Queues an event: see EventSender.send (resolves once queued, `false` when dropped by `whenFull: 'drop'`). */
  send(event: PulseboardEvent): Promise<boolean> {
    return this.events_().send(event);
  }
  /** Sends what is queued; resolves with the counters and the events not stored since the last flush (see EventSender.flush). */
  flush(): Promise<FlushResult> {
    return this.sender?.flush() ?? Promise.resolve(emptyResult());
  }
  /** Refuses further sends, then drains like `flush()`. */
  close(): Promise<FlushResult> {
    return this.sender?.close() ?? Promise.resolve(emptyResult());
  }
  /** `close()`, under the name other SDKs use. */
  shutdown(): Promise<FlushResult> {
    return this.close();
  }
  /** Each refused, given-up or dropped event (per request); with a listener the default logger stays quiet. */
  on(event: 'error', listener: SenderErrorListener): this {
    this.errorListeners.add(listener);
    this.sender?.on(event, listener);
    return this;
  }
  off(event: 'error', listener: SenderErrorListener): this {
    this.errorListeners.delete(listener);
    this.sender?.off(event, listener);
    return this;
  }
  stats(): SenderStats {
    return this.sender?.stats() ?? emptyStats();
  }

  /** Live tile changes of one project; see `subscribe()`. */
  subscribe(project: string, options: Omit<SubscribeOptions, 'url' | 'token' | 'project'> & { url?: string } = {}): Subscription {
    const url = options.url ?? this.clientOptions.broadcastUrl;
    if (url === undefined) throw new Error('subscribe() needs the broadcast URL: pass broadcastUrl to the client or url here');
    return subscribe({ ...options, url, token: this.clientOptions.token ?? this.clientOptions.apiKey!, project });
  }

  private events_(): EventSender {
    if (this.sender === undefined) {
      if (this.clientOptions.apiKey === undefined) throw new Error('send() needs the project API key: pass apiKey');
      this.sender = new EventSender({ ...this.clientOptions, apiKey: this.clientOptions.apiKey });
      for (const listener of this.errorListeners) this.sender.on('error', listener);
    }
    return this.sender;
  }
}

const emptyStats = (): SenderStats => ({ pending: 0, pendingBytes: 0, inFlightRequests: 0, sent: 0, failed: 0, dropped: 0, retries: 0 });
const emptyResult = (): FlushResult => ({ ...emptyStats(), failures: [], failuresOmitted: 0 });
