import pg from 'pg';
import { createLogger, type Logger } from '@pulseboard/config';

// int8 (bigint) columns hold event ids ≤ 2^53 and counts: parse them as numbers.
pg.types.setTypeParser(20, (value: string) => Number(value));

export type Pool = pg.Pool;

export interface PoolOptions {
  connectionString: string;
  max?: number;
  applicationName: string;
  /** Where lost connections are reported (default: a logger named after the application). */
  logger?: Logger;
}

/**
 * A pool that survives Postgres going away. pg emits 'error' on a connection
 * that dies outside a query (a restart's `terminating connection due to
 * administrator command`, a reset socket): on the pool for an idle one, on
 * the client for one checked out between two queries. An 'error' event
 * without a listener ends the process, so both get one here. The dead
 * connection is dropped (idle: by the pool; checked out: on release, as not
 * queryable); the next query opens a new one, and fails as retryable while
 * Postgres is down, which callers turn into a retry or a 503.
 */
export function createPool(options: PoolOptions): pg.Pool {
  const logger = options.logger ?? createLogger(options.applicationName, process.env.LOG_LEVEL ?? 'info');
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    application_name: options.applicationName,
    // Sessions in UTC: an event timestamp without an offset means UTC, whatever the server's zone.
    options: '-c TimeZone=UTC',
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30000,
  });
  pool.on('error', (error: Error) => logger.warn({ event: 'postgres_connection_lost', idle: true, ...postgresErrorFields(error) }));
  pool.on('connect', (client) => {
    // Checked out: the query under way (or the next one) fails with the reason, which is where it is handled.
    client.on('error', (error: Error) => logger.debug({ event: 'postgres_connection_lost', idle: false, ...postgresErrorFields(error) }));
  });
  return pool;
}

/** A connection failure in a log line: its code and message, no stack (a restart loses every connection at once). */
export function postgresErrorFields(error: unknown): { error_code?: string; error: string } {
  const { code, message } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; message?: unknown };
  return { ...(typeof code === 'string' ? { error_code: code } : {}), error: typeof message === 'string' ? message : String(error) };
}
