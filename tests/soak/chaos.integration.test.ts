import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SOURCE_NODE_ARGS } from '@pulseboard/test-kit';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The chaos soak (tests/soak/chaos.ts, `pnpm bench:chaos`) for 3 minutes at a
 * reduced rate: faults one after another, then every acknowledged event
 * stored once, counters equal to rows, every tile equal to its replay, every
 * transition notified once, no process dead. Its report is printed whole on
 * failure.
 */
describe('chaos soak, short run', () => {
  it(
    'keeps every guarantee through a series of faults',
    async () => {
      const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [...SOURCE_NODE_ARGS, 'tests/soak/chaos.ts', '--minutes', '3', '--rate', '100', '--fault-every', '25', '--projects', '10', '--tiles', '50'],
          { cwd: root, timeout: 14 * 60_000, maxBuffer: 64 * 1024 * 1024 },
          (error, out, err) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout: out, stderr: err }),
        );
      });
      const start = stdout.indexOf('\n{\n');
      const report =
        start === -1 ? undefined : (JSON.parse(stdout.slice(start + 1)) as { passed: boolean; faults: unknown[]; checks: { acknowledged: number } });
      expect(report, `${stdout}\n${stderr}`).toBeDefined();
      expect(report!.passed, stdout).toBe(true);
      expect(code).toBe(0);
      expect(report!.faults.length).toBeGreaterThanOrEqual(3);
      expect(report!.checks.acknowledged).toBeGreaterThan(5000);
    },
    15 * 60_000,
  );
});
