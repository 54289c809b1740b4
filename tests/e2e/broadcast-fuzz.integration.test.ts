import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROADCAST_CLOSE, broadcastClientMessageSchema } from '@pulseboard/contracts';
import { anyJson, fc, nastyString, schemaArbitrary, waitFor } from '@pulseboard/test-kit';
import { startPipeline } from './harness.ts';
import { validServerMessage } from './ws-client.ts';

/** How long the suite drives the broadcast socket (FUZZ_SECONDS, default 40). */
const FUZZ_MS = Number(process.env.FUZZ_SECONDS ?? '40') * 1000;
// What a fuzzed session may end with: the documented refusals, or our own close.
const DOCUMENTED_CLOSES = new Set<number>([BROADCAST_CLOSE.badMessage, BROADCAST_CLOSE.authFailed, BROADCAST_CLOSE.authTimeout, 1000, 1005]);

type Frame = { kind: 'json'; value: unknown } | { kind: 'text'; value: string } | { kind: 'binary'; value: Uint8Array };

/** One session: connect (credential at the upgrade, or none), send the frames, read until quiet, close. */
async function session(
  base: string,
  headerToken: string | undefined,
  frames: Frame[],
): Promise<{ messages: unknown[]; close: { code: number } | undefined; refused?: number }> {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`, headerToken === undefined ? {} : { headers: { authorization: `Bearer ${headerToken}` } });
  const messages: unknown[] = [];
  let close: { code: number } | undefined;
  ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
  ws.on('close', (code) => (close = { code }));
  const opened = await new Promise<number | true>((resolve) => {
    ws.once('open', () => resolve(true));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve(0));
  });
  if (opened !== true) return { messages, close, refused: opened };
  for (const frame of frames) {
    if (close !== undefined) break;
    ws.send(frame.kind === 'json' ? (JSON.stringify(frame.value) ?? 'null') : frame.value);
  }
  // Every frame gets its answer (or the close) before the next session: ping and wait for the pong.
  if (close === undefined) {
    const before = messages.length;
    ws.send(JSON.stringify({ type: 'ping' }));
    await waitFor(() => close !== undefined || messages.slice(before).some((m) => (m as { type?: unknown }).type === 'pong'), {
      timeoutMs: 10_000,
      what: 'pong or close',
      intervalMs: 5,
    }).catch(() => undefined);
  }
  if (close === undefined) {
    ws.close(1000);
    await waitFor(() => close !== undefined, { timeoutMs: 10_000, what: 'the close', intervalMs: 5 }).catch(() => undefined);
  }
  return { messages, close };
}

function messageProblem(message: unknown): string | undefined {
  // The published protocol schema decides (types, error codes, fields), not a copy of it here.
  if (!validServerMessage(message))
    return `undocumented message ${JSON.stringify(message).slice(0, 200)}: ${JSON.stringify(validServerMessage.errors?.slice(0, 2))}`;
  return undefined;
}

describe('fuzzing the broadcast WebSocket protocol with schema-driven messages', () => {
  let pipeline: Awaited<ReturnType<typeof startPipeline>>;
  let broadcast: Awaited<ReturnType<Awaited<ReturnType<typeof startPipeline>>['startBroadcast']>>;
  let project: Awaited<ReturnType<Awaited<ReturnType<typeof startPipeline>>['provision']>>;

  beforeAll(async () => {
    pipeline = await startPipeline();
    broadcast = await pipeline.startBroadcast({ BROADCAST_AUTH_TIMEOUT_MS: '3000' });
    project = await pipeline.provision();
  }, 180_000);
  afterAll(async () => {
    await pipeline?.stop();
  });

  it(
    `answers every generated session with documented messages and close codes only, never 1011 or a dropped connection (for ${FUZZ_MS / 1000} s)`,
    async () => {
      const tokens = [project.userToken, project.apiKey, 'evu_not-a-token', 'evk_not-a-key', ''];
      const resolve = () => undefined;
      const message = schemaArbitrary(broadcastClientMessageSchema, resolve, { mutation: 0.2 });
      // Valid messages, named projects that exist and do not, credentials good and bad, and what is not a message at all.
      const projectName = fc.oneof(fc.constant(project.projectKey), fc.constant('no-such-project'), nastyString);
      const frame: fc.Arbitrary<Frame> = fc.oneof(
        { weight: 5, arbitrary: message.map((value) => ({ kind: 'json' as const, value })) },
        {
          weight: 3,
          arbitrary: fc
            .record({
              type: fc.constantFrom('subscribe', 'unsubscribe'),
              project: projectName,
              since: fc.option(fc.oneof(fc.nat(), fc.constant(2 ** 53)), { nil: undefined }),
            })
            .map((value) => ({ kind: 'json' as const, value })),
        },
        { weight: 2, arbitrary: fc.constantFrom(...tokens).map((token) => ({ kind: 'json' as const, value: { type: 'auth', token } })) },
        { weight: 1, arbitrary: anyJson.map((value) => ({ kind: 'json' as const, value })) },
        {
          weight: 1,
          arbitrary: fc
            .oneof(fc.string({ unit: 'binary', maxLength: 50 }), fc.constant('x'.repeat(5000)), fc.constant('{"type":'))
            .map((value) => ({ kind: 'text' as const, value })),
        },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 50 }).map((value) => ({ kind: 'binary' as const, value })) },
      );
      const closes = new Map<number, number>();
      const failures: string[] = [];
      let sessions = 0;
      let frames = 0;
      const started = Date.now();
      await fc
        .assert(
          fc.asyncProperty(
            fc.option(fc.constantFrom(...tokens.slice(0, 2)), { nil: undefined }),
            fc.array(frame, { minLength: 1, maxLength: 8 }),
            async (headerToken, sent) => {
              const result = await session(broadcast.url, headerToken, sent);
              sessions++;
              frames += sent.length;
              if (result.refused !== undefined) {
                if (result.refused !== 401) failures.push(`upgrade refused with ${result.refused}`);
                return result.refused === 401;
              }
              const code = result.close?.code ?? -1;
              closes.set(code, (closes.get(code) ?? 0) + 1);
              const problem =
                result.messages.map(messageProblem).find((p) => p !== undefined) ?? (DOCUMENTED_CLOSES.has(code) ? undefined : `closed with ${code}`);
              if (problem !== undefined) failures.push(`${problem} after ${JSON.stringify(sent).slice(0, 400)}`);
              return problem === undefined;
            },
          ),
          { numRuns: 1_000_000, interruptAfterTimeLimit: FUZZ_MS, markInterruptAsFailure: false, endOnFailure: true },
        )
        .catch((error: unknown) => {
          throw new Error(`${failures.slice(0, 5).join('\n')}\n${String(error).slice(0, 2000)}`);
        });
      console.log(
        `broadcast fuzz: ${sessions} sessions, ${frames} client frames in ${((Date.now() - started) / 1000).toFixed(1)} s; closes ${[...closes]
          .sort((a, b) => a[0] - b[0])
          .map(([c, n]) => `${c}×${n}`)
          .join(' ')}; 1011: ${closes.get(1011) ?? 0}`,
      );
      expect(failures).toEqual([]);
      expect(broadcast.process.child.exitCode).toBeNull();
      // The refusals were reached, and so was the happy path.
      expect(closes.get(BROADCAST_CLOSE.badMessage) ?? 0).toBeGreaterThan(0);
      expect(closes.get(1000) ?? 0).toBeGreaterThan(0);
    },
    FUZZ_MS + 120_000,
  );
});
