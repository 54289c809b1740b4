import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Who owns which table, and who may name it in SQL. A table belongs to the
 * service whose migrations create it (services/<owner>/migrations): only that
 * service writes and migrates it. Every other service reads it through the
 * owner's read package, the one package with SQL on it. A new table must be
 * claimed here (docs/architecture.md, Tables, lists the same).
 */
export interface Owner {
  /** The package under packages/ holding every other service's SQL on these tables. */
  readPackage: string;
  tables: readonly string[];
}

export const TABLE_OWNERS: Readonly<Record<string, Owner>> = {
  gateway: {
    readPackage: 'control-plane',
    tables: ['accounts', 'users', 'user_tokens', 'projects', 'tiles', 'notification_services', 'project_integration_secrets', 'control_outbox'],
  },
  store: {
    readPackage: 'event-store',
    tables: ['events', 'event_labels', 'project_daily_events', 'project_monthly_usage', 'store_offsets', 'events_legacy', 'event_labels_legacy'],
  },
  'rule-engine': {
    readPackage: 'tile-state-store',
    tables: [
      'tile_states',
      'tile_group_states',
      'tile_state_history',
      'tile_replays',
      'rule_engine_offsets',
      'rule_engine_outbox',
      'rule_engine_relay_cursors',
      'rule_engine_freshness',
    ],
  },
  notification: { readPackage: 'delivery-log', tables: ['notification_deliveries'] },
};

const withoutComments = (sql: string) => sql.replace(/--[^\n]*/g, '');

/** The tables a migration creates: CREATE TABLE, and ALTER TABLE ... RENAME TO (a table under a new name). Names built at run time (format('%I')) are not tables of the schema. */
export function createdTables(sql: string): string[] {
  const text = withoutComments(sql);
  const created = [...text.matchAll(/\bCREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(?:public\.)?([a-z_][a-z0-9_]*)\b/gi)].map((m) => m[1]!);
  const renamed = [...text.matchAll(/\bALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?[a-z_][a-z0-9_.]*\s+RENAME\s+TO\s+([a-z_][a-z0-9_]*)\b/gi)].map(
    (m) => m[1]!,
  );
  return [...new Set([...created, ...renamed].map((name) => name.toLowerCase()))];
}

/**
 * Where a source names one of `tables` in SQL: a keyword that takes a table
 * (FROM, JOIN, INTO, UPDATE, TABLE, TRUNCATE, USING) then the name. SQL
 * keywords are written in capitals in this code base, so prose ("read from
 * events") is not SQL. Each hit as written, e.g. 'FROM tile_states'.
 */
export function sqlNaming(source: string, tables: ReadonlySet<string>): string[] {
  const hits = source.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE|TABLE|TRUNCATE|USING)\s+(?:ONLY\s+|IF\s+(?:NOT\s+)?EXISTS\s+)?(?:public\.)?([a-z_][a-z0-9_]*)\b/g);
  return [...hits].filter((m) => tables.has(m[1]!)).map((m) => m[0].replace(/\s+/g, ' '));
}

export interface Migration {
  service: string;
  file: string;
  sql: string;
}

/** A file with code: a service's (`service`) or a package's (`pkg`). */
export interface Source {
  path: string;
  service?: string;
  pkg?: string;
  text: string;
}

/** Every way the code base breaks ownership: unclaimed or twice-claimed tables, claims on no table, SQL on a table by someone but its owner and its read package. */
export function ownershipProblems(owners: Readonly<Record<string, Owner>>, migrations: readonly Migration[], sources: readonly Source[]): string[] {
  const problems: string[] = [];
  const ownerOf = new Map<string, string>();
  for (const [service, owner] of Object.entries(owners))
    for (const table of owner.tables) {
      const other = ownerOf.get(table);
      if (other !== undefined) problems.push(`table ${table} is claimed by both ${other} and ${service}`);
      else ownerOf.set(table, service);
    }
  const created = new Set<string>();
  for (const migration of migrations)
    for (const table of createdTables(migration.sql)) {
      created.add(table);
      const owner = ownerOf.get(table);
      if (owner === undefined) problems.push(`table ${table} (${migration.file}) is claimed by nobody: add it to TABLE_OWNERS.${migration.service}`);
      else if (owner !== migration.service) problems.push(`table ${table} is claimed by ${owner} but created by ${migration.service} (${migration.file})`);
    }
  for (const table of ownerOf.keys()) if (!created.has(table)) problems.push(`table ${table} is claimed but no migration creates it`);

  const every = new Set([...ownerOf.keys(), ...created]);
  const readerOf = new Map(Object.entries(owners).map(([service, owner]) => [owner.readPackage, service]));
  for (const source of sources) {
    const allowedOwner = source.service ?? (source.pkg === undefined ? undefined : readerOf.get(source.pkg));
    for (const hit of sqlNaming(source.text, every)) {
      const table = hit.split(' ').at(-1)!;
      const owner = ownerOf.get(table);
      if (owner === allowedOwner) continue;
      const why = owner === undefined ? 'a table nobody claims' : `${owner}'s table: read it through @pulseboard/${owners[owner]!.readPackage}`;
      problems.push(`${source.path}: ${hit} (${why})`);
    }
  }
  return problems;
}

function codeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(path).isDirectory()) return codeFiles(path);
    return /\.(?:[cm]?[jt]s|tsx)$/.test(name) && !/\.test\.[cm]?[jt]sx?$/.test(name) ? [path] : [];
  });
}

/** Every service's migrations, from the repository at `root`. */
export function repositoryMigrations(root: string): Migration[] {
  return readdirSync(join(root, 'services')).flatMap((service) => {
    const dir = join(root, 'services', service, 'migrations');
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.sql'));
    } catch {
      return [];
    }
    return files.map((file) => ({ service, file: relative(root, join(dir, file)), sql: readFileSync(join(dir, file), 'utf8') }));
  });
}

/**
 * The code the rule holds for: each service's src/ and each package (wherever
 * its code lives: the dashboard's is in app/ and scripts/), tests aside. The
 * test kit is test tooling: like the tests, it may look into any table.
 */
export function repositorySources(root: string): Source[] {
  const read = (path: string) => readFileSync(path, 'utf8');
  const services = readdirSync(join(root, 'services')).flatMap((service) =>
    codeFiles(join(root, 'services', service, 'src')).map((path) => ({ path: relative(root, path), service, text: read(path) })),
  );
  const packages = readdirSync(join(root, 'packages'))
    .filter((pkg) => pkg !== 'test-kit')
    .flatMap((pkg) => codeFiles(join(root, 'packages', pkg)).map((path) => ({ path: relative(root, path), pkg, text: read(path) })));
  return [...services, ...packages];
}
