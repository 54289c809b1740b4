import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { migrateAll } from '@pulseboard/db';
import {
  envelope,
  freePort,
  request,
  spawnService,
  startPrivatePostgres,
  TEST_ADMIN_TOKEN,
  waitFor,
  type PrivatePostgres,
  type ServiceProcess,
} from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The load on the first gateway: 1,000 events/s, as 20 single events on /ingest and 2 webhook batches of 40 every 100 ms. */
const TICK_MS = 100;
const INGEST_PER_TICK = 20;
const BATCHES_PER_TICK = 2;
const BATCH_SIZE = 40;
const OUTAGE_MS = 11_000;
/**
 * A second gateway whose reserve is sized for one second at 50 events/s (one block of 1000 ids at
 * least), sent a webhook batch of 50 every tick (500 events/s offered): it spends its reserve early in the outage, even
 * on a machine too busy to serve half of that.
 */
const SMALL_RESERVE_BATCH = 50;

interface Answer {
  at: number;
  /** `small`: webhooks on the gateway with the small reserve. */
  endpoint: 'ingest' | 'webhooks' | 'small';
  status: number;
  retryAfter: string | null;
  ids: number[];
}

/** Counts of each status in a phase, e.g. `{"201": 300, "503": 2}`. */
function tally(statuses: (number | string)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

describe('Postgres restarts under load (pg_ctl stop -m fast, down 11 s, started again)', () => {
  let postgres: PrivatePostgres;
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let db: pg.Pool;
  const services: ServiceProcess[] = [];
  let smallReserveUrl: string;

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query('CREATE DATABASE pulseboard');
    await admin.end();
    const databaseUrl = postgres.urlFor('pulseboard');
    await migrateAll(databaseUrl, root);
    db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    db.on('error', () => undefined);
    // The production bound on webhook outcomes (the engine answers them), and the whole pipeline.
    pipeline = await startPipeline({ DATABASE_URL: databaseUrl, WEBHOOK_OUTCOME_TIMEOUT_MS: '2000' });
    services.push(
      pipeline.gateway,
      await pipeline.startStore(),
      await pipeline.startRuleEngine(),
      await pipeline.startNotification(),
      (await pipeline.startBroadcast()).process,
    );
    const port = await freePort();
    smallReserveUrl = `http://127.0.0.1:${port}`;
    services.push(
      await spawnService('gateway', { ...pipeline.env, GATEWAY_PORT: String(port), EVENT_ID_RESERVE_MIN_RATE: '50', EVENT_ID_RESERVE_SECONDS: '1' }),
    );
  }, 180_000);
  afterAll(async () => {
    await services.at(5)?.kill();
    await pipeline?.stop();
    await db?.end();
    await postgres?.destroy();
  });

  it('answers ingest through the outage, 503 on reads meanwhile, and loses or doubles nothing; no service exits', async () => {
    const project = await pipeline.provision({ burstLimit: 10_000_000, hourlyLimit: 10_000_000, monthlyQuota: 10_000_000 });
    const tile = await request(`${pipeline.url}/api/v1/tiles`, {
      token: project.apiKey,
      body: {
        name: 'deploys',
        kind: 'metric',
        rule: {
          filter: { type: 'deployment' },
          evaluation: { kind: 'window', aggregate: 'count', window: '1h', warning: 1_000_000_000, critical: 2_000_000_000 },
        },
      },
    });
    expect(tile.status).toBe(201);
    const tileId = tile.body.data.id as number;

    const answers: Answer[] = [];
    const reads: { sent: number; at: number; what: 'read' | 'admin' | 'ready'; status: number; body: unknown }[] = [];
    let inFlight = 0;
    let skippedTicks = 0;
    const send = async (endpoint: Answer['endpoint'], body: unknown) => {
      inFlight++;
      try {
        const url = endpoint === 'small' ? `${smallReserveUrl}/api/v1/webhooks` : `${pipeline.url}/${endpoint === 'ingest' ? 'ingest' : 'api/v1/webhooks'}`;
        const res = await request(url, { token: project.apiKey, body });
        const ids =
          res.status === 201 || res.status === 202
            ? endpoint === 'ingest'
              ? [Number(res.body.event_id)]
              : (res.body.events as { event_id: string }[]).map((e) => Number(e.event_id.replace(/^evt_/, '')))
            : [];
        answers.push({ at: Date.now(), endpoint, status: res.status, retryAfter: res.headers.get('retry-after'), ids });
        if (res.status >= 500)
          expect(res.body).toMatchObject(
            endpoint === 'ingest'
              ? { status: 'error', code: expect.any(String), message: expect.any(String) }
              : { error: { code: expect.any(String), message: expect.any(String) } },
          );
      } catch (error) {
        // A refused or reset connection: what the issue saw when the gateway died.
        answers.push({ at: Date.now(), endpoint, status: 0, retryAfter: null, ids: [] });
        void error;
      } finally {
        inFlight--;
      }
    };
    const pending: Promise<void>[] = [];
    let loading = true;
    const loader = (async () => {
      for (let tick = Date.now(); loading; tick += TICK_MS) {
        // A machine too busy to keep up skips ticks (counted, printed) rather than pile requests up or
        // catch up in bursts: the rate offered never exceeds 1,000 events/s on the first gateway.
        if (inFlight > 400 || Date.now() - tick > TICK_MS) skippedTicks++;
        else {
          for (let i = 0; i < INGEST_PER_TICK; i++) pending.push(send('ingest', envelope(project.projectKey)));
          for (let i = 0; i < BATCHES_PER_TICK; i++)
            pending.push(send('webhooks', { events: Array.from({ length: BATCH_SIZE }, () => envelope(project.projectKey)) }));
          pending.push(send('small', { events: Array.from({ length: SMALL_RESERVE_BATCH }, () => envelope(project.projectKey)) }));
        }
        await new Promise((r) => setTimeout(r, Math.max(0, tick + TICK_MS - Date.now())));
      }
    })();
    let probing = true;
    const prober = (async () => {
      while (probing) {
        const sent = Date.now();
        const [events, admin, ready] = await Promise.all([
          request(`${pipeline.url}/api/v1/events?per_page=1`, { token: project.apiKey }).catch(() => ({ status: 0, body: undefined })),
          request(`${pipeline.url}/api/v1/admin/accounts`, { token: TEST_ADMIN_TOKEN }).catch(() => ({ status: 0, body: undefined })),
          request(`${pipeline.url}/readyz`).catch(() => ({ status: 0, body: undefined })),
        ]);
        const at = Date.now();
        reads.push(
          { sent, at, what: 'read', status: events.status, body: events.body },
          { sent, at, what: 'admin', status: admin.status, body: admin.body },
          { sent, at, what: 'ready', status: ready.status, body: ready.body },
        );
        await new Promise((r) => setTimeout(r, 200));
      }
    })();

    const storedCount = async () => Number((await db.query('SELECT count(*) FROM events WHERE project_key = $1', [project.projectKey])).rows[0].count);
    // Up and flowing: the store has written some of the load.
    await waitFor(async () => (await storedCount()) > 500, { timeoutMs: 60_000, what: 'the store to write the first events' }).catch((error: unknown) => {
      throw new Error(
        `${String(error)}; answers so far ${JSON.stringify(tally(answers.map((a) => a.status)))}, ${JSON.stringify(answers.find((a) => a.status !== 201 && a.status !== 202))}; store log:\n${services[1]!.logs.slice(-20).join('\n')}`,
      );
    });

    const stopAsked = Date.now();
    await postgres.stop();
    const down = Date.now();
    // The outage itself is what is tested: its length is the test's parameter, not a guess at a condition.
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    const startAsked = Date.now();
    await postgres.start();
    const up = Date.now();
    const tileValue = async () => Number((await db.query('SELECT value FROM tile_states WHERE tile_id = $1', [tileId])).rows[0]?.value ?? 0);
    // Resumed: the store and the engine write again (the backlog of the outage follows).
    const [storedAtUp, countedAtUp] = [await storedCount(), await tileValue()];
    const storeResumed = await waitFor(async () => ((await storedCount()) > storedAtUp ? Date.now() : undefined), {
      timeoutMs: 60_000,
      intervalMs: 100,
      what: 'the store to write again',
    });
    const engineResumed = await waitFor(async () => ((await tileValue()) > countedAtUp ? Date.now() : undefined), {
      timeoutMs: 60_000,
      intervalMs: 100,
      what: 'the rule engine to count again',
    });
    const acknowledgedBeforeUp = answers.filter((a) => a.at <= up).flatMap((a) => a.ids);

    // Back: reads answer again, and the pipeline has caught up with what was acknowledged while it was down.
    const readsBack = await waitFor(
      () => reads.find((r) => r.at > up && r.what === 'read' && r.status === 200 && reads.some((a) => a.at > up && a.what === 'admin' && a.status === 200))?.at,
      { timeoutMs: 60_000, what: 'reads to answer 200 again' },
    );
    const idsBeforeUp = new Set(acknowledgedBeforeUp);
    const storeBack = await waitFor(
      async () => {
        const { rows } = await db.query('SELECT count(*)::int AS n FROM events WHERE id = ANY($1::bigint[])', [[...idsBeforeUp]]);
        return rows[0].n === idsBeforeUp.size ? Date.now() : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 200, what: 'the store to write every event acknowledged before Postgres came back' },
    );
    const engineBack = await waitFor(
      async () => {
        const { rows } = await db.query('SELECT value FROM tile_states WHERE tile_id = $1', [tileId]);
        return rows[0] !== undefined && Number(rows[0].value) >= idsBeforeUp.size ? Date.now() : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 200, what: 'the rule engine to count every event acknowledged before Postgres came back' },
    );
    // Some more load after the return, then stop and let everything settle.
    await waitFor(() => Date.now() > up + 5_000, { timeoutMs: 10_000 });
    loading = false;
    await loader;
    await Promise.all(pending);
    probing = false;
    await prober;

    const acknowledged = answers.flatMap((a) => a.ids);
    const during = answers.filter((a) => a.at > down && a.at <= up);
    // The small reserve ran out during the outage (503), and ids came back with Postgres (201).
    const smallRefused = during.find((a) => a.endpoint === 'small' && a.status === 503)!;
    expect(smallRefused).toBeDefined();
    const smallBack = answers.find((a) => a.endpoint === 'small' && a.at > up && (a.status === 201 || a.status === 202))!;
    expect(smallBack).toBeDefined();
    // A probe belongs to the outage when it was sent after the stop and answered before the start was asked for.
    const phase = (from: number, to: number, what: string) => tally(reads.filter((r) => r.sent > from && r.at <= to && r.what === what).map((r) => r.status));
    // Which events each service logged (a line that is not JSON fails the last assertion, with the line).
    const eventOf = (line: string) => {
      try {
        return (JSON.parse(line) as { event?: string }).event ?? '(no event)';
      } catch {
        return '(not JSON)';
      }
    };
    const logEvents = (service: ServiceProcess) => tally(service.logs.map(eventOf));
    const loadSeconds = (answers.at(-1)!.at - answers[0]!.at) / 1000;
    console.log(
      JSON.stringify({
        postgres_stop_took_s: (down - stopAsked) / 1000,
        postgres_down_s: (up - down) / 1000,
        load_events_per_s: Math.round(
          answers.reduce((n, a) => n + (a.endpoint === 'webhooks' ? BATCH_SIZE : a.endpoint === 'small' ? SMALL_RESERVE_BATCH : 1), 0) / loadSeconds,
        ),
        skipped_ticks: skippedTicks,
        ingest_during_outage: tally(during.filter((a) => a.endpoint === 'ingest').map((a) => a.status)),
        webhooks_during_outage: tally(during.filter((a) => a.endpoint === 'webhooks').map((a) => a.status)),
        small_reserve_during_outage: tally(during.filter((a) => a.endpoint === 'small').map((a) => a.status)),
        small_reserve_first_503_after_stop_s: (smallRefused.at - down) / 1000,
        small_reserve_201_again_after_s: (smallBack.at - up) / 1000,
        first_503_after_stop_s: during.some((a) => a.endpoint !== 'small' && a.status === 503)
          ? (during.find((a) => a.endpoint !== 'small' && a.status === 503)!.at - down) / 1000
          : null,
        reads_during_outage: phase(down, startAsked, 'read'),
        admin_during_outage: phase(down, startAsked, 'admin'),
        readyz_during_outage: phase(down, startAsked, 'ready'),
        reads_back_after_s: (readsBack - up) / 1000,
        store_resumed_after_s: (storeResumed - up) / 1000,
        engine_resumed_after_s: (engineResumed - up) / 1000,
        store_caught_up_after_s: (storeBack - up) / 1000,
        engine_caught_up_after_s: (engineBack - up) / 1000,
        acknowledged: acknowledged.length,
      }),
    );

    // Never a refused connection or a 500: 201/202, or 503 with Retry-After once the id reserve is spent.
    for (const a of answers) {
      expect([201, 202, 503]).toContain(a.status);
      if (a.status === 503) expect(a.retryAfter).toMatch(/^\d+$/);
    }
    // The default reserve carried ingest through the outage's first 10 s at this rate.
    const firstRefusal = during.find((a) => a.endpoint !== 'small' && a.status !== 201 && a.status !== 202);
    expect(((firstRefusal?.at ?? up) - down) / 1000).toBeGreaterThanOrEqual(10);
    // Reads and admin: 503 in the documented shape while it was down.
    const readsDown = reads.filter((r) => r.sent > down && r.at <= startAsked);
    expect(readsDown.length).toBeGreaterThan(0);
    // The gateway stays ready (it serves ingest), and says Postgres is not answering.
    for (const r of readsDown.filter((r) => r.what === 'ready')) expect(r).toMatchObject({ status: 200, body: { checks: { postgres: false } } });
    for (const r of readsDown.filter((r) => r.what !== 'ready')) {
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ error: { code: 'service_unavailable', message: expect.any(String) } });
    }

    // Every acknowledged event stored once, counted once, by the store and by the rule engine.
    expect(new Set(acknowledged).size).toBe(acknowledged.length);
    const settled = await waitFor(
      async () => {
        const rows = await storedCount();
        const value = Number((await db.query('SELECT value FROM tile_states WHERE tile_id = $1', [tileId])).rows[0].value);
        return rows >= acknowledged.length && value === rows ? { rows, value } : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 500, what: 'the store and the engine to settle' },
    );
    const { rows: stored } = await db.query('SELECT count(*)::int AS n, count(DISTINCT id)::int AS ids FROM events WHERE id = ANY($1::bigint[])', [
      acknowledged,
    ]);
    expect(stored[0]).toEqual({ n: acknowledged.length, ids: acknowledged.length });
    const daily = Number(
      (await db.query('SELECT coalesce(sum(event_count), 0) AS n FROM project_daily_events WHERE project_key = $1', [project.projectKey])).rows[0].n,
    );
    console.log(JSON.stringify({ acknowledged: acknowledged.length, stored_rows: settled.rows, tile_count: settled.value, daily_count: daily }));
    console.log(
      JSON.stringify(
        Object.fromEntries(
          services.map((s, i) => [['gateway', 'store', 'rule-engine', 'notification', 'broadcast', 'gateway (small reserve)'][i], logEvents(s)]),
        ),
      ),
    );
    // Nothing but acknowledged events reached Kafka (a 503 here is a refusal before any id was taken).
    expect(settled.rows).toBe(acknowledged.length);
    expect(settled.value).toBe(acknowledged.length);
    expect(daily).toBe(acknowledged.length);

    // No service exited, and every line each one logged is JSON.
    for (const service of services) {
      expect(service.child.exitCode).toBeNull();
      expect(service.child.signalCode).toBeNull();
      for (const line of service.logs) expect(() => JSON.parse(line), line).not.toThrow();
    }
  }, 300_000);
});
