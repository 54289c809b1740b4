import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { PulseboardApiError, PulseboardNetworkError } from '@pulseboard/client';
import { AdminApiError, AdminClient } from './admin-client.ts';
import { addClientCommands, CliInputError, SilentFailure } from './client-commands.ts';
import { addTilesVerify } from './verify-command.ts';

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  env: Record<string, string | undefined>;
  /** All of stdin (send's NDJSON, tiles create --file -). */
  stdin?: () => Promise<string>;
  /** Called once on SIGINT/SIGTERM (tail stops cleanly). */
  onInterrupt?: (stop: () => void) => void;
}

/** This package's version: package.json is one directory above src/ and dist/ alike. */
export const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

function integer(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError('must be a non-negative integer');
  return Number(value);
}

/**
 * `pulseboard admin <resource> <action>`: each command is one admin API call;
 * the answer is printed as JSON on stdout. Errors go to stderr with the API's
 * code and details, and the process exits non-zero.
 */
export function buildProgram(io: Io): Command {
  const program = new Command('pulseboard')
    .description('Send events, follow tiles and operate a Pulseboard installation')
    .version(VERSION, '-V, --version', 'print the version')
    .option('--url <url>', 'gateway base URL (env PULSEBOARD_URL)', io.env.PULSEBOARD_URL ?? 'http://127.0.0.1:8080')
    .option('--admin-token <token>', "the installation's ADMIN_TOKEN (env ADMIN_TOKEN; prefer the env: flags show up in process lists)")
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError()
    .exitOverride();

  const client = (): AdminClient => {
    const { url, adminToken } = program.opts<{ url: string; adminToken?: string }>();
    const token = adminToken ?? io.env.ADMIN_TOKEN;
    if (token === undefined || token === '') throw new AdminApiError('no admin token: set ADMIN_TOKEN or pass --admin-token');
    return new AdminClient({ url, adminToken: token });
  };
  const print = (value: unknown) => io.out(`${JSON.stringify(value, null, 2)}\n`);

  const admin = program.command('admin').description('accounts, users and projects (needs ADMIN_TOKEN)');

  const account = admin.command('account').description('accounts');
  account
    .command('create')
    .requiredOption('--name <name>', 'account name')
    .option('--hourly-limit <n>', "requests per hour for the whole account (default: the environment's)", integer)
    .action(async (o: { name: string; hourlyLimit?: number }) =>
      print(await client().createAccount({ name: o.name, ...(o.hourlyLimit === undefined ? {} : { hourly_request_limit: o.hourlyLimit }) })),
    );
  account.command('list').action(async () => print(await client().listAccounts()));

  const user = admin.command('user').description('users and their tokens');
  user
    .command('create')
    .requiredOption('--account <id>', 'account id', integer)
    .requiredOption('--email <email>', 'email address')
    .description('create a user; prints its token, shown this once')
    .action(async (o: { account: number; email: string }) => print(await client().createUser(o.account, { email: o.email })));
  user
    .command('list')
    .requiredOption('--account <id>', 'account id', integer)
    .action(async (o: { account: number }) => print(await client().listUsers(o.account)));
  user
    .command('token')
    .description('issue a new token for a user; the previous token stops working')
    .requiredOption('--user <id>', 'user id', integer)
    .action(async (o: { user: number }) => print(await client().issueUserToken(o.user)));
  user
    .command('delete')
    .requiredOption('--user <id>', 'user id', integer)
    .action(async (o: { user: number }) => {
      await client().deleteUser(o.user);
      print({ deleted: true, id: o.user });
    });

  const project = admin.command('project').description('projects and their API keys');
  project
    .command('create')
    .description('create a project; prints its API key, shown this once')
    .requiredOption('--account <id>', 'account id', integer)
    .requiredOption('--key <project_key>', 'project key (lowercase letters, digits, - and _)')
    .requiredOption('--name <name>', 'display name')
    .option('--monthly-quota <n>', "events per calendar month (default: the gateway's DEFAULT_MONTHLY_QUOTA)", integer)
    .option('--burst-limit <n>', 'events per minute', integer)
    .option('--hourly-limit <n>', 'requests per hour', integer)
    .action(async (o: { account: number; key: string; name: string; monthlyQuota?: number; burstLimit?: number; hourlyLimit?: number }) =>
      print(
        await client().createProject(o.account, {
          project_key: o.key,
          name: o.name,
          ...(o.monthlyQuota === undefined ? {} : { monthly_quota: o.monthlyQuota }),
          ...(o.burstLimit === undefined ? {} : { burst_limit: o.burstLimit }),
          ...(o.hourlyLimit === undefined ? {} : { hourly_request_limit: o.hourlyLimit }),
        }),
      ),
    );
  project
    .command('list')
    .requiredOption('--account <id>', 'account id', integer)
    .action(async (o: { account: number }) => print(await client().listProjects(o.account)));
  project
    .command('delete')
    .description('delete a project: its key stops working at once; its events are kept')
    .requiredOption('--key <project_key>', 'project key')
    .action(async (o: { key: string }) => {
      await client().deleteProject(o.key);
      print({ deleted: true, project_key: o.key });
    });

  addClientCommands(program, io);
  addTilesVerify(program, io);
  return program;
}

/** Runs the CLI; resolves to the process exit code. */
export async function runCli(argv: string[], io: Io): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    const code = (error as { code?: string }).code;
    // Commander has printed help or its own message already.
    if (code === 'commander.helpDisplayed' || code === 'commander.help' || code === 'commander.version') return 0;
    if (typeof code === 'string' && code.startsWith('commander.')) return 2;
    if (error instanceof SilentFailure) return 1;
    if (error instanceof PulseboardApiError) {
      io.err(`error: ${error.message}\n`);
      if (error.details !== undefined) io.err(`${JSON.stringify({ details: error.details }, null, 2)}\n`);
      return 1;
    }
    if (error instanceof PulseboardNetworkError || error instanceof CliInputError) {
      io.err(`error: ${error.message}\n`);
      return 1;
    }
    if (error instanceof AdminApiError) {
      io.err(`error: ${error.message}\n`);
      if (error.details !== undefined) io.err(`${JSON.stringify({ details: error.details }, null, 2)}\n`);
      return 1;
    }
    io.err(`error: ${(error as Error).message}\n`);
    return 1;
  }
}
