import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createdTables, ownershipProblems, repositoryMigrations, repositorySources, sqlNaming, TABLE_OWNERS, type Owner } from './table-ownership.ts';

/**
 * Each table has one owner (the service whose migrations create it); every
 * other service reads it through the owner's read package. This fails the
 * build on a table nobody claims and on SQL naming a table outside its owner
 * and that package.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('table ownership', () => {
  const migrations = repositoryMigrations(root);
  const sources = repositorySources(root);

  it('every table of every migration has one owner, and no code but the owner and its read package has SQL on it (no exceptions)', () => {
    expect(ownershipProblems(TABLE_OWNERS, migrations, sources)).toEqual([]);
  });

  it("each owner's read package exists", () => {
    for (const owner of Object.values(TABLE_OWNERS))
      expect(existsSync(join(root, 'packages', owner.readPackage, 'package.json')), owner.readPackage).toBe(true);
  });

  it('the scan reaches every migration folder and the code that reads other owners (it would see SQL placed there)', () => {
    expect(new Set(migrations.map((m) => m.service))).toEqual(new Set(Object.keys(TABLE_OWNERS)));
    const scanned = new Set(sources.map((s) => s.path));
    for (const file of [
      'services/broadcast/src/repository.ts',
      'services/gateway/src/control/tiles-routes.ts',
      'services/notification/src/repository.ts',
      'services/rule-engine/src/replay.ts',
      'services/store/src/service.ts',
      'packages/control-plane/src/credentials.ts',
      'packages/event-store/src/event-list.ts',
      'packages/tile-state-store/src/tile-history.ts',
      'packages/delivery-log/src/deliveries.ts',
      'packages/kafka-kit/src/index.ts',
    ])
      expect(scanned.has(file), file).toBe(true);
  });
});

describe('the ownership scanner', () => {
  const owners: Record<string, Owner> = {
    store: { readPackage: 'event-store', tables: ['events'] },
    'rule-engine': { readPackage: 'tile-state-store', tables: ['tile_states'] },
  };
  const migrations = [
    { service: 'store', file: 'services/store/migrations/1_events.sql', sql: 'CREATE TABLE events (id bigint);' },
    { service: 'rule-engine', file: 'services/rule-engine/migrations/1_tile-state.sql', sql: 'CREATE TABLE IF NOT EXISTS tile_states (tile_id bigint);' },
  ];

  it('finds SQL naming the tables, not prose', () => {
    const tables = new Set(['tiles', 'projects', 'events']);
    expect(sqlNaming('SELECT id FROM tiles t JOIN projects p ON true', tables)).toEqual(['FROM tiles', 'JOIN projects']);
    expect(sqlNaming('DELETE FROM events e USING projects p; TRUNCATE events; UPDATE ONLY events SET x = 1', tables)).toEqual([
      'FROM events',
      'USING projects',
      'TRUNCATE events',
      'UPDATE ONLY events',
    ]);
    expect(sqlNaming('the events of projects from projects; FROM unnest($1) AS e', tables)).toEqual([]);
  });

  it('reads the tables a migration creates, comments aside', () => {
    const sql = `-- CREATE TABLE commented_out (x int);
      CREATE TABLE events (id bigint);
      CREATE UNLOGGED TABLE IF NOT EXISTS scratch (x int);
      ALTER TABLE events RENAME TO events_legacy;
      EXECUTE format('CREATE TABLE %I (LIKE %I)', name, t);`;
    expect(createdTables(sql)).toEqual(['events', 'scratch', 'events_legacy']);
  });

  it('passes the owner, its read package, and code naming no table', () => {
    const sources = [
      { path: 'services/store/src/writer.ts', service: 'store', text: 'INSERT INTO events (id) VALUES ($1)' },
      { path: 'packages/event-store/src/list.ts', pkg: 'event-store', text: 'SELECT * FROM events' },
      { path: 'services/gateway/src/health.ts', service: 'gateway', text: 'SELECT 1' },
    ];
    expect(ownershipProblems(owners, migrations, sources)).toEqual([]);
  });

  it("fails on another service's SQL on a table, and on another read package's", () => {
    const sources = [
      { path: 'services/gateway/src/tile-state.ts', service: 'gateway', text: 'SELECT status FROM tile_states WHERE tile_id = $1' },
      { path: 'packages/event-store/src/history.ts', pkg: 'event-store', text: 'SELECT e.id FROM events e JOIN tile_states s ON true' },
      { path: 'packages/kafka-kit/src/x.ts', pkg: 'kafka-kit', text: 'DELETE FROM events' },
    ];
    expect(ownershipProblems(owners, migrations, sources)).toEqual([
      "services/gateway/src/tile-state.ts: FROM tile_states (rule-engine's table: read it through @pulseboard/tile-state-store)",
      "packages/event-store/src/history.ts: JOIN tile_states (rule-engine's table: read it through @pulseboard/tile-state-store)",
      "packages/kafka-kit/src/x.ts: FROM events (store's table: read it through @pulseboard/event-store)",
    ]);
  });

  it('fails on a table nobody claims, one claimed twice or by another service, and a claim on no table', () => {
    const more = [
      ...migrations,
      { service: 'store', file: 'services/store/migrations/2_new.sql', sql: 'CREATE TABLE event_archive (id bigint);' },
      { service: 'notification', file: 'services/notification/migrations/1_x.sql', sql: 'CREATE TABLE tile_states (x int);' },
    ];
    const claims = { ...owners, notification: { readPackage: 'delivery-log', tables: ['events', 'deliveries'] } };
    expect(ownershipProblems(claims, more, [])).toEqual([
      'table events is claimed by both store and notification',
      'table event_archive (services/store/migrations/2_new.sql) is claimed by nobody: add it to TABLE_OWNERS.store',
      'table tile_states is claimed by rule-engine but created by notification (services/notification/migrations/1_x.sql)',
      'table deliveries is claimed but no migration creates it',
    ]);
    expect(
      ownershipProblems(owners, more.slice(0, 3), [{ path: 'services/store/src/archive.ts', service: 'store', text: 'INSERT INTO event_archive' }]),
    ).toEqual([
      'table event_archive (services/store/migrations/2_new.sql) is claimed by nobody: add it to TABLE_OWNERS.store',
      'services/store/src/archive.ts: INTO event_archive (a table nobody claims)',
    ]);
  });
});
