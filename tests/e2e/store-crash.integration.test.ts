import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { envelope, request, TEST_DATABASE_URL, waitFor } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';

const EVENTS = 3000;
/**
 * Sending 3,000 events through a real gateway is most of this test's time and scales with the
 * machine's load: on the shared 2-core machine the same checkout took 15 s or more than 60 s.
 * Room for a slow send and for the 60 s catch-up wait below.
 */
const TEST_TIMEOUT_MS = 180_000;

describe('a store consumer killed mid-stream and restarted', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  const db = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });

  beforeAll(async () => {
    pipeline = await startPipeline();
  });
  afterAll(async () => {
    await pipeline?.stop();
    await db.end();
  });

  it(
    'loses nothing and stores and counts nothing twice',
    async () => {
      const project = await pipeline.provision({ burstLimit: 1_000_000, hourlyLimit: 1_000_000, monthlyQuota: 1_000_000 });
      const stored = async () => Number((await db.query('SELECT count(*) FROM events WHERE project_key = $1', [project.projectKey])).rows[0].count);

      const store = await pipeline.startStore();
      const ids: number[] = [];
      // One sender at a time checks, the first to find events stored kills; the others go on sending
      // (the check was after an await: every sender saw nothing killed yet and all 16 killed).
      let killed: Promise<unknown> | undefined;
      let checking = false;
      // 16 concurrent senders; the store is SIGKILLed (no graceful stop, no commit) once some events are stored.
      let next = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < EVENTS) {
            next++;
            const res = await request(`${pipeline.url}/ingest`, { token: project.apiKey, body: envelope(project.projectKey, { attributes: { n: next } }) });
            expect(res.status).toBe(201);
            ids.push(res.body.event_id);
            if (killed === undefined && !checking && ids.length >= EVENTS / 3) {
              checking = true;
              if ((await stored()) > 0) killed = store.kill('SIGKILL');
              checking = false;
              await killed;
            }
          }
        }),
      );
      expect(killed).toBeDefined();
      const storedWhileDown = await stored();
      expect(storedWhileDown).toBeLessThan(EVENTS);

      await pipeline.startStore();
      await waitFor(async () => (await stored()) === EVENTS, { timeoutMs: 60000, what: `${EVENTS} events stored` });

      const rows = await db.query('SELECT id FROM events WHERE project_key = $1 ORDER BY id', [project.projectKey]);
      const storedIds = rows.rows.map((r) => Number(r.id));
      expect(new Set(ids).size).toBe(EVENTS);
      expect(storedIds).toEqual([...ids].sort((a, b) => a - b));
      const usage = await db.query('SELECT sum(event_count)::int AS total FROM project_monthly_usage WHERE project_key = $1', [project.projectKey]);
      expect(usage.rows[0].total).toBe(EVENTS);
    },
    TEST_TIMEOUT_MS,
  );
});
