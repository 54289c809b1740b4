import { backoffDelay, sleep, type BackoffOptions } from './backoff.ts';
import { ClientClosedError, isRetryable, PulseboardApiError, PulseboardNetworkError } from './errors.ts';
import type { components } from './generated/openapi.ts';
import { gzip, httpCall, newIdempotencyKey } from './http.ts';

type WebhookEvent = components['schemas']['WebhookEvent'];

/** An event to send: the contract's event; `timestamp` defaults to now and `attributes` to `{}`. */
export type PulseboardEvent = Omit<WebhookEvent, 'timestamp' | 'attributes'> & { timestamp?: string; attributes?: Record<string, unknown> };

export interface SentOutcome {
  /** How many events the request carried. */
  events: number;
  /** 1 when the first attempt succeeded. */
  attempts: number;
  status: number;
  /** The gateway's answer (WebhookBatchResult/Accepted, or IngestAccepted with `endpoint: 'ingest'`). */
  body: unknown;
  idempotencyKey: string;
}

export interface FailedOutcome {
  events: unknown[];
  attempts: number;
  /** A PulseboardApiError (a refusal, or the last retryable answer when retries ran out) or a PulseboardNetworkError. */
  error: unknown;
  idempotencyKey: string;
}

/**
 * Events the client could not store, as the `error` event, the logger and
 * `flush()` report them: `refused` (the gateway answered 4xx that a retry
 * cannot change), `gave_up` (retryable failures, 429 included, until
 * `retry.maxElapsedMs` or a Retry-After beyond it), `dropped` (not queued:
 * `whenFull: 'drop'` with a full buffer, or one event larger than the buffer).
 */
export interface SendFailure {
  reason: 'refused' | 'gave_up' | 'dropped';
  /** The events concerned (as sent: `timestamp`, `attributes` and `project_key` filled in). */
  events: unknown[];
  /** The HTTP status, when the gateway answered. */
  status?: number;
  /** The API's error code (e.g. `rate_limit_exceeded`, `validation_error`), `network_error`, `buffer_full` or `too_large`. */
  code: string;
  message: string;
  /** Requests made for these events (0 when dropped). */
  attempts: number;
  /** The PulseboardApiError or PulseboardNetworkError behind it, if any. */
  error?: unknown;
}

/** One event that was not stored, in `flush()`'s and `close()`'s result. */
export interface EventFailure {
  event: unknown;
  reason: SendFailure['reason'];
  status?: number;
  code: string;
  message: string;
}

export interface FlushResult extends SenderStats {
  /**
   * The events not stored since the previous `flush()`/`close()` returned
   * (at most 1,000, oldest first; `failuresOmitted` counts the rest).
   */
  failures: EventFailure[];
  failuresOmitted: number;
}

/** Where failures go when nothing else takes them (default: `console`, i.e. stderr on Node). */
export interface SenderLogger {
  error: (message: string) => void;
}

export type SenderErrorListener = (failure: SendFailure) => void;

export interface SenderHooks {
  /** A request was stored (2xx). */
  onSent?: (outcome: SentOutcome) => void;
  /** A request's events were given up: a refusal (400, 401, 402, 403, ...) or retries exhausted. */
  onFailed?: (outcome: FailedOutcome) => void;
  /** An attempt failed and will be repeated (same body, same Idempotency-Key) after `delayMs`. */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown; idempotencyKey: string }) => void;
  /** `whenFull: 'drop'`: an event was not queued. */
  onDropped?: (event: PulseboardEvent, reason: 'buffer_full' | 'too_large') => void;
}

export interface SenderOptions {
  /** The gateway's base URL, e.g. http://127.0.0.1:8080. */
  url: string;
  /** The project's API key (`evk_…`). */
  apiKey: string;
  /** Set on events that lack it; required by `endpoint: 'ingest'` unless every event carries `project_key`. */
  projectKey?: string;
  /** `webhooks` (default): batches to /api/v1/webhooks. `ingest`: one request per event to /ingest. */
  endpoint?: 'webhooks' | 'ingest';
  /** Events per batch, 1–100 (the API's maximum). Default 100. */
  batchSize?: number;
  /** How long a partial batch waits for more events before it goes (ms). Default 20. */
  lingerMs?: number;
  /** Requests in flight at once. Default 4. */
  concurrency?: number;
  /** Bodies longer than this many bytes are sent with Content-Encoding: gzip; `false`: never. Default 16384. */
  gzipAboveBytes?: number | false;
  /** Events held (queued and in flight) at most. Default 10,000. */
  maxBufferEvents?: number;
  /** Bytes of event JSON held (queued and in flight) at most (UTF-16 code units: bytes for ASCII). Default 8 MiB. */
  maxBufferBytes?: number;
  /**
   * When the buffer is full: `wait` (default) — `send()` resolves only once
   * there is room, so a producer that awaits it is slowed to the gateway's
   * pace; `drop` — `send()` resolves `false` at once, the event is counted in
   * `stats().dropped` and given to `onDropped`.
   */
  whenFull?: 'wait' | 'drop';
  retry?: BackoffOptions & {
    /** Give a request up when its next attempt would start later than this after its first (ms); a longer Retry-After too. Default 300,000. */
    maxElapsedMs?: number;
  };
  /** Per attempt (ms). Default 30,000. */
  requestTimeoutMs?: number;
  hooks?: SenderHooks;
  /**
   * Reports events that were not stored when neither an `error` listener
   * (`on('error', ...)`) nor the matching hook (`onFailed`, `onDropped`) is
   * there to take them: one line each, `logger.error('[pulseboard] ...')`.
   * Default `console`; `false` silences it (failures still count in
   * `stats()` and come back from `flush()`).
   */
  logger?: SenderLogger | false;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
}

export interface SenderStats {
  /** Events accepted by send() and not yet settled (queued or in flight). */
  pending: number;
  pendingBytes: number;
  inFlightRequests: number;
  sent: number;
  failed: number;
  dropped: number;
  retries: number;
}

const MAX_BATCH = 100;
const MAX_REPORTED_FAILURES = 1000;
/** The default log says one line a second at most (a full buffer can drop thousands of events a second); flush() says the rest. */
const LOG_INTERVAL_MS = 1000;

/**
 * The queue behind `send()`. Events are serialised once when queued; a batch's
 * body, Idempotency-Key and (gzipped) bytes are fixed before its first attempt
 * and reused by every retry, so the gateway stores a retried batch once.
 */
export class EventSender {
  private readonly queue: string[] = [];
  private head = 0;
  private pendingEvents = 0;
  private pendingBytes = 0;
  private inFlight = 0;
  private sent = 0;
  private failed = 0;
  private dropped = 0;
  private retries = 0;
  private lingerTimer: ReturnType<typeof setTimeout> | undefined;
  private lingerExpired = false;
  private draining = 0;
  private closed = false;
  private pausedUntil = 0;
  private readonly roomWaiters: Array<{ size: number; resolve: () => void }> = [];
  private idleWaiters: Array<() => void> = [];
  private failures: EventFailure[] = [];
  private failuresOmitted = 0;
  private lastLogAt = -Infinity;
  private unlogged = 0;
  private readonly errorListeners = new Set<SenderErrorListener>();
  private readonly o: Required<
    Pick<SenderOptions, 'endpoint' | 'batchSize' | 'lingerMs' | 'concurrency' | 'maxBufferEvents' | 'maxBufferBytes' | 'whenFull' | 'requestTimeoutMs'>
  > & { gzipAboveBytes: number | false };
  private readonly base: string;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly options: SenderOptions) {
    const batchSize = options.batchSize ?? MAX_BATCH;
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH) throw new RangeError(`batchSize must be an integer from 1 to ${MAX_BATCH}`);
    this.o = {
      endpoint: options.endpoint ?? 'webhooks',
      batchSize: options.endpoint === 'ingest' ? 1 : batchSize,
      lingerMs: options.lingerMs ?? 20,
      concurrency: Math.max(1, options.concurrency ?? 4),
      gzipAboveBytes: options.gzipAboveBytes ?? 16_384,
      maxBufferEvents: Math.max(1, options.maxBufferEvents ?? 10_000),
      maxBufferBytes: Math.max(1, options.maxBufferBytes ?? 8 * 1024 * 1024),
      whenFull: options.whenFull ?? 'wait',
      requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    };
    this.base = options.url.replace(/\/+$/, '');
    this.fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /**
   * Queues one event. Resolves `true` once it is queued (not once it is
   * stored: see `flush()` and the hooks), `false` when dropped. Rejects with
   * ClientClosedError after `close()`.
   */
  send(event: PulseboardEvent): Promise<boolean> {
    if (this.closed) return Promise.reject(new ClientClosedError());
    const text = this.serialise(event);
    const size = text.length;
    if (size > this.o.maxBufferBytes) return Promise.resolve(this.drop(event, 'too_large'));
    if (this.roomWaiters.length === 0 && this.hasRoom(size)) {
      this.enqueue(text);
      return Promise.resolve(true);
    }
    if (this.o.whenFull === 'drop') return Promise.resolve(this.drop(event, 'buffer_full'));
    return new Promise<boolean>((resolve) => {
      this.roomWaiters.push({
        size,
        resolve: () => {
          this.enqueue(text);
          resolve(true);
        },
      });
    });
  }

  /**
   * Failures (refused, given up or dropped events) as they happen. With a
   * listener the default logger stays quiet.
   */
  on(event: 'error', listener: SenderErrorListener): this {
    if (event === 'error') this.errorListeners.add(listener);
    return this;
  }
  off(event: 'error', listener: SenderErrorListener): this {
    if (event === 'error') this.errorListeners.delete(listener);
    return this;
  }

  /**
   * Sends what is queued now without waiting for full batches; resolves when
   * nothing is pending (retries included) with the counters and the events
   * not stored since the previous flush.
   */
  async flush(): Promise<FlushResult> {
    this.draining++;
    try {
      this.pump();
      while (this.pendingEvents > 0 || this.roomWaiters.length > 0) {
        await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
      }
    } finally {
      this.draining--;
    }
    const unlogged = this.takeUnlogged();
    if (unlogged > 0) this.log(`${unlogged} more event${unlogged === 1 ? '' : 's'} not stored (the log says one line a second; flush() returns each)`);
    const result: FlushResult = { ...this.stats(), failures: this.failures, failuresOmitted: this.failuresOmitted };
    this.failures = [];
    this.failuresOmitted = 0;
    return result;
  }

  /** Refuses further sends, then drains like `flush()`. */
  async close(): Promise<FlushResult> {
    this.closed = true;
    return this.flush();
  }

  stats(): SenderStats {
    return {
      pending: this.pendingEvents,
      pendingBytes: this.pendingBytes,
      inFlightRequests: this.inFlight,
      sent: this.sent,
      failed: this.failed,
      dropped: this.dropped,
      retries: this.retries,
    };
  }

  private serialise(event: PulseboardEvent): string {
    const addKey = event.project_key === undefined && this.options.projectKey !== undefined;
    // A copy only when something is to be filled in: the caller's object is never changed.
    if (event.timestamp !== undefined && event.attributes !== undefined && !addKey) return JSON.stringify(event);
    const full: Record<string, unknown> = { ...event };
    if (full.timestamp === undefined) full.timestamp = new Date().toISOString();
    if (full.attributes === undefined) full.attributes = {};
    if (addKey) full.project_key = this.options.projectKey;
    return JSON.stringify(full);
  }

  private hasRoom(size: number): boolean {
    return this.pendingEvents < this.o.maxBufferEvents && this.pendingBytes + size <= this.o.maxBufferBytes;
  }

  private drop(event: PulseboardEvent, reason: 'buffer_full' | 'too_large'): boolean {
    this.dropped++;
    this.hook('onDropped', event, reason);
    const message =
      reason === 'too_large'
        ? `the event is larger than maxBufferBytes (${this.o.maxBufferBytes})`
        : `the buffer is full (maxBufferEvents ${this.o.maxBufferEvents}, maxBufferBytes ${this.o.maxBufferBytes}) and whenFull is 'drop'`;
    this.report({ reason: 'dropped', events: [event], code: reason, message, attempts: 0 }, this.options.hooks?.onDropped !== undefined);
    return false;
  }

  /** Every failure is counted for flush(), given to the `error` listeners, and logged when nobody else took it. */
  private report(failure: SendFailure, hooked: boolean): void {
    for (const event of failure.events) {
      if (this.failures.length < MAX_REPORTED_FAILURES)
        this.failures.push({
          event,
          reason: failure.reason,
          ...(failure.status === undefined ? {} : { status: failure.status }),
          code: failure.code,
          message: failure.message,
        });
      else this.failuresOmitted++;
    }
    for (const listener of this.errorListeners) {
      try {
        listener(failure);
      } catch {
        // the caller's bug; the queue goes on
      }
    }
    if (this.errorListeners.size > 0 || hooked || this.options.logger === false) return;
    const now = Date.now();
    if (now - this.lastLogAt < LOG_INTERVAL_MS) {
      this.unlogged += failure.events.length;
      return;
    }
    this.lastLogAt = now;
    const what =
      failure.reason === 'dropped'
        ? 'dropped'
        : failure.reason === 'refused'
          ? 'refused'
          : `given up after ${failure.attempts} attempt${failure.attempts === 1 ? '' : 's'}`;
    const before = this.takeUnlogged();
    this.log(
      `${events(failure.events.length)} not stored (${what}): ${failure.status === undefined ? '' : `${failure.status} `}${failure.code}: ${failure.message}${before === 0 ? '' : ` (and ${events(before)} before it, not logged)`}`,
    );
  }

  /** How many events were left out of the log since its last line (and from now on none). */
  private takeUnlogged(): number {
    const n = this.unlogged;
    this.unlogged = 0;
    return n;
  }

  private log(line: string): void {
    try {
      (this.options.logger || console).error(`[pulseboard] ${line}`);
    } catch {
      // a logger that throws must not stop the queue
    }
  }

  private enqueue(text: string): void {
    this.queue.push(text);
    this.pendingEvents++;
    this.pendingBytes += text.length;
    this.pump();
  }

  private queued(): number {
    return this.queue.length - this.head;
  }

  /** Starts requests while there is room in flight and a batch to send (a full one, or any once it lingered or a flush asks). */
  private pump(): void {
    while (this.inFlight < this.o.concurrency && this.queued() > 0) {
      if (this.queued() < this.o.batchSize && !this.lingerExpired && this.draining === 0) break;
      const items = this.queue.slice(this.head, this.head + this.o.batchSize);
      this.head += items.length;
      // Compact now and then: the array never holds more than the buffer bound plus what was sent since.
      if (this.head > 4096 && this.head * 2 > this.queue.length) {
        this.queue.splice(0, this.head);
        this.head = 0;
      }
      this.lingerExpired = false;
      this.inFlight++;
      void this.run(items);
    }
    if (this.queued() === 0) {
      // Nothing waits: the next event starts its own linger.
      if (this.lingerTimer !== undefined) clearTimeout(this.lingerTimer);
      this.lingerTimer = undefined;
      this.lingerExpired = false;
    } else if (this.lingerTimer === undefined && this.draining === 0) {
      this.lingerTimer = setTimeout(() => {
        this.lingerTimer = undefined;
        this.lingerExpired = true;
        this.pump();
      }, this.o.lingerMs);
    }
  }

  private async run(items: string[]): Promise<void> {
    const bytes = items.reduce((n, s) => n + s.length, 0);
    const idempotencyKey = newIdempotencyKey();
    const ingest = this.o.endpoint === 'ingest';
    const text = ingest ? items[0]! : `{"events":[${items.join(',')}]}`;
    const headers: Record<string, string> = { 'content-type': 'application/json', 'idempotency-key': idempotencyKey };
    let body: string | Uint8Array = text;
    if (this.o.gzipAboveBytes !== false && text.length > this.o.gzipAboveBytes) {
      body = await gzip(text);
      headers['content-encoding'] = 'gzip';
    }
    const url = `${this.base}${ingest ? '/ingest' : '/api/v1/webhooks'}`;
    const started = Date.now();
    const maxElapsed = this.options.retry?.maxElapsedMs ?? 300_000;
    let attempt = 0;
    try {
      for (;;) {
        const pause = this.pausedUntil - Date.now();
        if (pause > 0) await sleep(pause);
        attempt++;
        try {
          const result = await httpCall({
            method: 'POST',
            url,
            token: this.options.apiKey,
            headers,
            body,
            timeoutMs: this.o.requestTimeoutMs,
            fetch: this.fetchFn,
          });
          this.sent += items.length;
          this.hook('onSent', { events: items.length, attempts: attempt, status: result.status, body: result.body, idempotencyKey });
          return;
        } catch (error) {
          const retryAfter = error instanceof PulseboardApiError ? error.retryAfterMs : undefined;
          const delayMs = backoffDelay(attempt - 1, this.options.retry, retryAfter);
          // Given up when the next attempt would fall after maxElapsedMs (a Retry-After past it included).
          if (isRetryable(error) && Date.now() + delayMs - started <= maxElapsed) {
            // The server asked every request to hold off (a full rate window, a broker away): not only this one.
            if (retryAfter !== undefined) this.pausedUntil = Math.max(this.pausedUntil, Date.now() + retryAfter);
            this.retries++;
            this.hook('onRetry', { attempt, delayMs, error, idempotencyKey });
            await sleep(delayMs);
            continue;
          }
          this.failed += items.length;
          const events = items.map((s) => JSON.parse(s) as unknown);
          this.hook('onFailed', { events, attempts: attempt, error, idempotencyKey });
          this.report(describeFailure(error, events, attempt), this.options.hooks?.onFailed !== undefined);
          return;
        }
      }
    } finally {
      this.inFlight--;
      this.pendingEvents -= items.length;
      this.pendingBytes -= bytes;
      this.admitWaiters();
      this.pump();
      if (this.pendingEvents === 0 && this.roomWaiters.length === 0) {
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        for (const resolve of waiters) resolve();
      }
    }
  }

  /** A hook that throws must not be taken for the request's outcome. */
  private hook<K extends keyof SenderHooks>(name: K, ...args: Parameters<NonNullable<SenderHooks[K]>>): void {
    try {
      (this.options.hooks?.[name] as ((...a: unknown[]) => void) | undefined)?.(...args);
    } catch {
      // the caller's bug; the queue goes on
    }
  }

  private admitWaiters(): void {
    while (this.roomWaiters.length > 0 && this.hasRoom(this.roomWaiters[0]!.size)) this.roomWaiters.shift()!.resolve();
  }
}

const events = (n: number) => `${n} event${n === 1 ? '' : 's'}`;

/** What a given-up request's error says, for the report. */
function describeFailure(error: unknown, events: unknown[], attempts: number): SendFailure {
  const reason = isRetryable(error) ? 'gave_up' : 'refused';
  if (error instanceof PulseboardApiError) {
    // The error's message is "<status> <code>: <message>"; the report has status and code apart.
    const prefix = `${error.status} ${error.code}: `;
    return {
      reason,
      events,
      status: error.status,
      code: error.code,
      message: error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message,
      attempts,
      error,
    };
  }
  if (error instanceof PulseboardNetworkError) return { reason, events, code: 'network_error', message: error.message, attempts, error };
  return { reason, events, code: 'unknown', message: error instanceof Error ? error.message : String(error), attempts, error };
}
