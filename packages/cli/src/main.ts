#!/usr/bin/env node
import { runCli } from './program.ts';

process.exitCode = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  stdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  onInterrupt: (stop) => {
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  },
});
