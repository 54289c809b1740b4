import { readFileSync, readdirSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); NaN elsewhere. */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return NaN;
  }
}

interface Stat {
  pid: number;
  ppid: number;
  /** utime + stime, seconds. */
  own: number;
  /** cutime + cstime: children that exited and were reaped, seconds. */
  reaped: number;
}

function stat(pid: number): Stat | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { pid, ppid: Number(fields[1]), own: (Number(fields[11]) + Number(fields[12])) / 100, reaped: (Number(fields[13]) + Number(fields[14])) / 100 };
  } catch {
    return undefined;
  }
}

/** The process and all its live descendants, except the subtrees rooted at `prune` (processes measured on their own). */
export function processTree(root: number, prune: ReadonlySet<number> = new Set()): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(Number(name));
    if (s === undefined) continue;
    children.set(s.ppid, [...(children.get(s.ppid) ?? []), s.pid]);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (prune.has(pid)) continue;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/**
 * CPU seconds of a process tree so far: every live member's own time plus
 * what the members reaped from children that exited (a Postgres postmaster's
 * ended backends), so the figure only grows.
 */
export function treeCpuSeconds(root: number, prune?: ReadonlySet<number>): number {
  let total = 0;
  for (const pid of processTree(root, prune)) {
    const s = stat(pid);
    if (s !== undefined) total += s.own + s.reaped;
  }
  return total;
}

/**
 * Proportional set size of each process tree in bytes (shared pages split
 * between sharers, so a sum is honest). The reads are asynchronous, so they
 * run on libuv's threads: reading `smaps_rollup` makes the kernel walk every
 * mapping of a process (a JVM of 600 MB, a Postgres with its backends), and
 * done synchronously once a second it stalled the bench's event loop, which
 * then showed up in every latency the bench measured.
 */
export async function treesPssBytes(roots: Record<string, number>): Promise<Record<string, number>> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const parents = await Promise.all(
    pids.map(async (pid) => {
      try {
        return Number((await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ')[1]);
      } catch {
        return -1;
      }
    }),
  );
  const children = new Map<number, number[]>();
  pids.forEach((pid, i) => children.set(parents[i]!, [...(children.get(parents[i]!) ?? []), Number(pid)]));
  const prune = new Set(Object.values(roots));
  const pss = async (pid: number): Promise<number> => {
    try {
      const m = /^Pss:\s+(\d+) kB/m.exec(await readFile(`/proc/${pid}/smaps_rollup`, 'utf8'));
      return m ? Number(m[1]) * 1024 : 0;
    } catch {
      return 0; // exited meanwhile
    }
  };
  const out: Record<string, number> = {};
  await Promise.all(
    Object.entries(roots).map(async ([name, root]) => {
      const tree: number[] = [];
      const queue = [root];
      while (queue.length > 0) {
        const pid = queue.shift()!;
        tree.push(pid);
        queue.push(...(children.get(pid) ?? []).filter((child) => !prune.has(child)));
      }
      out[name] = (await Promise.all(tree.map(pss))).reduce((a, b) => a + b, 0);
    }),
  );
  return out;
}

/**
 * Seconds a process tree's live threads have waited in the run queue for a
 * CPU so far (`/proc/<pid>/task/<tid>/schedstat`, second field; Linux with
 * schedstats). Threads that ended take their wait with them, so over a window
 * this is a lower bound. Waiting for a CPU is latency the process did not
 * cause: a machine whose cores are busy queues every wake-up.
 */
export function treeRunQueueWaitSeconds(root: number, prune?: ReadonlySet<number>): number {
  let total = 0;
  for (const pid of processTree(root, prune)) {
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1]) / 1e9;
      } catch {
        // ended meanwhile
      }
    }
  }
  return total;
}
