import { spawn } from 'node:child_process';

/** promtool from PATH (deploy/prometheus.sh installs Debian's), or PROMTOOL. */
export const PROMTOOL = process.env.PROMTOOL ?? 'promtool';

/** Runs promtool with `input` on stdin; its exit code and everything it printed. */
export function promtool(args: string[], input?: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PROMTOOL, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (error) => reject(new Error(`${PROMTOOL} could not run (bash deploy/prometheus.sh installs it): ${error.message}`)));
    child.once('exit', (code) => resolve({ code, output }));
    child.stdin.end(input ?? '');
  });
}
