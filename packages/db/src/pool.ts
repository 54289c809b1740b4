import pg from 'pg';

// int8 (bigint) columns hold event ids ≤ 2^53 and counts: parse them as numbers.
pg.types.setTypeParser(20, (value: string) => Number(value));

export type Pool = pg.Pool;

export function createPool(options: { connectionString: string; max?: number; applicationName: string }): pg.Pool {
  return new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    application_name: options.applicationName,
    // Sessions in UTC: an event timestamp without an offset means UTC, whatever the server's zone.
    options: '-c TimeZone=UTC',
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30000,
  });
}
