import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The control-plane tables belong to the gateway (it writes and migrates
 * them); every other service reads them through this package. This fails the
 * build when a service's (or another package's) SQL names one of them.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const TABLES = ['accounts', 'users', 'user_tokens', 'projects', 'tiles', 'notification_services', 'control_outbox'];
// SQL keywords are written in capitals in this code base; prose ("read from projects") is not SQL.
const SQL = new RegExp(`\\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\\s+(${TABLES.join('|')})\\b`, 'g');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path) ? [path] : [];
  });
}

function offenderDirs(): string[] {
  return [
    ...readdirSync(join(root, 'services'))
      .filter((s) => s !== 'gateway')
      .map((s) => join(root, 'services', s, 'src')),
    // The whole package, wherever its code lives (the dashboard's is in app/ and scripts/).
    ...readdirSync(join(root, 'packages'))
      .filter((p) => p !== 'control-plane' && p !== 'test-kit')
      .map((p) => join(root, 'packages', p)),
  ];
}

function offenders(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const dir of offenderDirs()) {
    for (const file of sources(dir)) {
      const names = [...readFileSync(file, 'utf8').matchAll(SQL)].map((m) => m[0]);
      if (names.length > 0) found.set(relative(root, file), names);
    }
  }
  return found;
}

describe('control-plane table ownership', () => {
  const found = offenders();

  it('no service but the gateway, and no package but control-plane, has SQL naming a control-plane table (no exceptions)', () => {
    expect([...found], 'read these tables through @pulseboard/control-plane').toEqual([]);
  });

  it('the scan reaches the services that read the control plane (it would see SQL placed there)', () => {
    const scanned = new Set(offenderDirs().flatMap((dir) => sources(dir).map((file) => relative(root, file))));
    for (const file of [
      'services/broadcast/src/repository.ts',
      'services/notification/src/repository.ts',
      'services/rule-engine/src/service.ts',
      'services/store/src/service.ts',
    ])
      expect(scanned.has(file), file).toBe(true);
  });

  it('finds SQL naming the tables, not prose', () => {
    expect('SELECT id FROM tiles t JOIN projects p ON true'.match(SQL)).toEqual(['FROM tiles', 'JOIN projects']);
    expect('the events of projects from projects'.match(SQL)).toBeNull();
  });
});
