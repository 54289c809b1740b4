import type { Command } from 'commander';
import { PulseboardClient } from '@pulseboard/client';
import { CliInputError, SilentFailure } from './client-commands.ts';
import type { Io } from './program.ts';

const PER_PAGE = 100;

/**
 * `pulseboard tiles verify [--project KEY]`: a dry replay (POST
 * /tiles/:id/replay) of every tile of the project, one JSON line per tile
 * whose live state differs from what its stored events imply, then a summary
 * line on stderr; exit 1 when any differs. Nothing is changed.
 */
export function addTilesVerify(program: Command, io: Io): void {
  const tiles = program.commands.find((command) => command.name() === 'tiles') ?? program.command('tiles');
  tiles
    .command('verify')
    .description('replay every tile of a project over its stored events (dry run) and print each whose live state differs; exit 1 if any does')
    .option('--project <key>', 'one project (with a user token; a project key verifies its own)')
    .option('--since <time>', "where each replay starts (default: the tile's creation, at most 24 h ago)")
    .action(async (o: { project?: string; since?: string }) => {
      const { url, token } = program.opts<{ url: string; token?: string }>();
      const credential = token ?? io.env.PULSEBOARD_TOKEN;
      if (credential === undefined || credential === '') throw new CliInputError('no token: set PULSEBOARD_TOKEN or pass --token');
      const client = new PulseboardClient({ url, apiKey: credential });
      let checked = 0;
      let differ = 0;
      for (let page = 1; ; page++) {
        const list = await client.tiles.list({ ...(o.project === undefined ? {} : { project_key: o.project }), page, per_page: PER_PAGE });
        for (const tile of list.data) {
          const { data } = await client.tiles.replay(tile.id, { dry_run: true, ...(o.since === undefined ? {} : { since: o.since }) });
          checked++;
          if (data.equal) continue;
          differ++;
          io.out(
            `${JSON.stringify({ tile_id: tile.id, project_key: tile.project_key, name: tile.name, live: { status: data.live.status, value: data.live.value }, replay: { status: data.state.status, value: data.state.value }, events_replayed: data.events_replayed })}\n`,
          );
        }
        if (list.data.length < PER_PAGE) break;
      }
      io.err(`${checked} tiles replayed, ${differ} differ\n`);
      if (differ > 0) throw new SilentFailure();
    });
}
