import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import WebSocket from 'ws';
import { PulseboardClient, type EventTailFilters, type FailedOutcome, type PulseboardEvent, type Query, type WebSocketConstructor } from '@pulseboard/client';
import type { Io } from './program.ts';

/** A usage or input problem of the client commands: printed as `error: ...`, exit 1. */
export class CliInputError extends Error {}

function integer(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError('must be a non-negative integer');
  return Number(value);
}
const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `k=v`: v as JSON when it reads as JSON (numbers, booleans, null, quoted strings), else the text. */
function attribute(value: string, previous: Record<string, unknown> = {}): Record<string, unknown> {
  const at = value.indexOf('=');
  if (at <= 0) throw new InvalidArgumentError('must be key=value');
  const raw = value.slice(at + 1);
  let parsed: unknown = raw;
  try {
    parsed = JSON.parse(raw);
  } catch {
    // text
  }
  return { ...previous, [value.slice(0, at)]: parsed };
}

async function readStdin(io: Io): Promise<string> {
  if (io.stdin === undefined) throw new CliInputError('no stdin to read');
  return io.stdin();
}

/**
 * The client commands: `send`, `tail`, `events list`, `tiles ...`, each through
 * @pulseboard/client with a project key or user token (PULSEBOARD_TOKEN).
 */
export function addClientCommands(program: Command, io: Io): void {
  program
    .option('--token <token>', 'a project key (evk_…) or user token (evu_…) for send, tail, events and tiles (env PULSEBOARD_TOKEN)')
    .option(
      '--broadcast-url <url>',
      'the broadcast WebSocket, for tail (env PULSEBOARD_BROADCAST_URL)',
      io.env.PULSEBOARD_BROADCAST_URL ?? 'ws://127.0.0.1:8081/ws',
    );

  const client = (extra: Partial<ConstructorParameters<typeof PulseboardClient>[0]> = {}): PulseboardClient => {
    const { url, token, broadcastUrl } = program.opts<{ url: string; token?: string; broadcastUrl: string }>();
    const credential = token ?? io.env.PULSEBOARD_TOKEN;
    if (credential === undefined || credential === '') throw new CliInputError('no token: set PULSEBOARD_TOKEN or pass --token');
    return new PulseboardClient({ url, apiKey: credential, broadcastUrl, ...extra });
  };
  const print = (value: unknown) => io.out(`${JSON.stringify(value, null, 2)}\n`);

  program
    .command('send')
    .description('send events: one from the options, or NDJSON (one event per line) on stdin without --name')
    .option('--type <type>', 'deployment, uptime, error, metric or infrastructure', 'metric')
    .option('--name <name>', 'event name (without it: read NDJSON from stdin)')
    .option('--severity <severity>', 'info, warn, error or critical')
    .option('--source <source>', 'source')
    .option('--channel <channel>', 'channel')
    .option('--attr <key=value>', 'an attribute (repeatable; the value is read as JSON when it is JSON)', attribute)
    .option('--label <label>', 'a label (repeatable)', collect)
    .option('--timestamp <iso>', 'event time (default now)')
    .option('--ingest', 'one request per event to /ingest instead of batches to /api/v1/webhooks')
    .action(
      async (o: {
        type: string;
        name?: string;
        severity?: string;
        source?: string;
        channel?: string;
        attr?: Record<string, unknown>;
        label?: string[];
        timestamp?: string;
        ingest?: boolean;
      }) => {
        const failed: FailedOutcome[] = [];
        const c = client({ hooks: { onFailed: (f) => failed.push(f) }, ...(o.ingest === true ? { endpoint: 'ingest' as const } : {}) });
        let events: PulseboardEvent[];
        if (o.name !== undefined) {
          events = [
            {
              type: o.type,
              name: o.name,
              ...(o.severity === undefined ? {} : { severity: o.severity }),
              ...(o.source === undefined ? {} : { source: o.source }),
              ...(o.channel === undefined ? {} : { channel: o.channel }),
              attributes: o.attr ?? {},
              ...(o.label === undefined ? {} : { labels: o.label }),
              ...(o.timestamp === undefined ? {} : { timestamp: o.timestamp }),
            } as PulseboardEvent,
          ];
        } else {
          const lines = (await readStdin(io)).split('\n').map((l) => l.trim());
          events = [];
          lines.forEach((line, i) => {
            if (line === '') return;
            try {
              events.push(JSON.parse(line) as PulseboardEvent);
            } catch {
              throw new CliInputError(`stdin line ${i + 1} is not JSON`);
            }
          });
          if (events.length === 0) throw new CliInputError('nothing to send: pass --name, or NDJSON events on stdin');
        }
        // With --ingest every event needs its project: the key's own (a project key) when the event has none.
        if (o.ingest === true) {
          const project = (await c.projects.list()).data[0]?.project_key;
          for (const e of events) if (e.project_key === undefined && project !== undefined) e.project_key = project;
        }
        for (const e of events) await c.send(e);
        const stats = await c.close();
        for (const f of failed) {
          const error = f.error as { status?: number; code?: string; message?: string; details?: unknown };
          io.err(`error: ${f.events.length} event(s) not stored: ${error.message ?? String(f.error)}\n`);
          if (error.details !== undefined) io.err(`${JSON.stringify({ details: error.details }, null, 2)}\n`);
        }
        print({ sent: stats.sent, failed: stats.failed, retries: stats.retries });
        if (stats.failed > 0) throw new SilentFailure();
      },
    );

  program
    .command('tail')
    .description("print a project's tile changes as they happen (one JSON line each), and with --events its events, until interrupted")
    .argument('<project>', 'project key')
    .option('--since <position>', 'start after this change position (default: the current tiles, then live)', integer)
    .option('--count <n>', 'exit after n lines after the snapshot (tile changes and events)', integer)
    .option('--events', 'also print the project\'s events as the gateway accepts them ({"type":"event",...} lines), filtered by the options below')
    .option('--type <type>', 'with --events: events of this type')
    .option('--name <name>', 'with --events: events of this name')
    .option('--severity <severity>', 'with --events: events of this severity')
    .option('--channel <channel>', 'with --events: events of this channel')
    .option('--label <label>', 'with --events: a label every event must carry (repeatable)', collect)
    .action(
      async (
        project: string,
        o: { since?: number; count?: number; events?: boolean; type?: string; name?: string; severity?: string; channel?: string; label?: string[] },
      ) => {
        const filters = { type: o.type, name: o.name, severity: o.severity, channel: o.channel, label: o.label };
        const given = Object.entries(filters).filter(([, v]) => v !== undefined);
        if (o.events !== true && given.length > 0) throw new CliInputError(`--${given.map(([k]) => k).join(', --')} filter events: add --events`);
        const c = client();
        let seen = 0;
        await new Promise<void>((resolve, reject) => {
          const line = (value: unknown) => {
            io.out(`${JSON.stringify(value)}\n`);
            if (o.count !== undefined && ++seen >= o.count) {
              sub.close();
              resolve();
            }
          };
          const sub = c.subscribe(project, {
            WebSocket: WebSocket as unknown as WebSocketConstructor,
            ...(o.since === undefined ? {} : { since: o.since }),
            ...(o.events === true ? { events: Object.fromEntries(given) as EventTailFilters } : {}),
            onSnapshot: (s) => io.out(`${JSON.stringify(s)}\n`),
            onSubscribed: (s) =>
              io.err(
                `subscribed to ${project} at position ${s.position}${s.reconnects > 0 ? ` (reconnect ${s.reconnects}, ${s.resumed ? 'resumed' : 'from a snapshot'})` : ''}\n`,
              ),
            onChange: (change) => line(change),
            // Tile changes print as the change itself (as before); events as the protocol's message, so a line says which it is.
            onEvent: (event) => line({ type: 'event', v: 1, project, event }),
            onSkipped: (skipped) =>
              io.err(`skipped ${skipped.count} event(s) (${skipped.reason === 'rate' ? "over the server's rate" : 'reading too slowly'})\n`),
            onMessage: (message) => {
              if (message.type === 'tailing')
                io.err(
                  `tailing events of ${project}${Object.keys(message.filters).length === 0 ? '' : ` where ${JSON.stringify(message.filters)}`} (at most ${message.max_per_second}/s)\n`,
                );
              // A refused tail (bad filters close the socket with 4000 instead) ends the command.
              if (message.type === 'error' && message.code !== 'project_not_found') {
                sub.close();
                reject(new CliInputError(`${message.code}: ${message.message}`));
              }
            },
            onError: (error) => reject(new CliInputError(error.message)),
          });
          io.onInterrupt?.(() => {
            sub.close();
            resolve();
          });
        });
      },
    );

  const events = program.command('events').description('stored events');
  events
    .command('list')
    .description('a page of events, newest first, with the API’s filters')
    .option('--project <key>', 'one project (with a user token)')
    .option('--type <type>', 'type')
    .option('--name <name>', 'name')
    .option('--severity <severity>', 'severity')
    .option('--source <source>', 'source')
    .option('--channel <channel>', 'channel')
    .option('--correlation-id <id>', 'correlation id')
    .option('--label <label>', 'a label every event must carry (repeatable)', collect)
    .option('--since <time>', 'events at or after (a date or date-time)')
    .option('--until <time>', 'events before')
    .option('--page <n>', 'page, from 1', integer)
    .option('--per-page <n>', 'items per page (at most 100)', integer)
    .action(
      async (o: {
        project?: string;
        type?: string;
        name?: string;
        severity?: string;
        source?: string;
        channel?: string;
        correlationId?: string;
        label?: string[];
        since?: string;
        until?: string;
        page?: number;
        perPage?: number;
      }) => {
        const query = {
          project_key: o.project,
          type: o.type,
          name: o.name,
          severity: o.severity,
          source: o.source,
          channel: o.channel,
          correlation_id: o.correlationId,
          label: o.label,
          since: o.since,
          until: o.until,
          page: o.page,
          per_page: o.perPage,
        } as Query<'getApiV1Events'>;
        print(await client().events.list(query));
      },
    );

  const tiles = program.command('tiles').description('dashboard tiles');
  tiles
    .command('list')
    .option('--project <key>', 'one project (with a user token)')
    .action(async (o: { project?: string }) => print(await client().tiles.list(o.project === undefined ? {} : { project_key: o.project })));
  tiles
    .command('create')
    .description('create a tile from a JSON file (the body of POST /api/v1/tiles; - reads stdin)')
    .requiredOption('--file <path>', 'JSON file')
    .action(async (o: { file: string }) => {
      const text = o.file === '-' ? await readStdin(io) : readFileSync(o.file, 'utf8');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new CliInputError(`${o.file} is not JSON`);
      }
      print(await client().tiles.create(body as never));
    });
  tiles
    .command('delete')
    .argument('<id>', 'tile id', integer)
    .action(async (id: number) => {
      await client().tiles.delete(id);
      print({ deleted: true, id });
    });
}

/** The command printed its own errors; only the exit code is left. */
export class SilentFailure extends Error {}
