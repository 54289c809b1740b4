/**
 * Prints where a V8 CPU profile (node --cpu-prof) spent its time: self time by
 * function and by package, the top entries. Used with `bench:ingest --profile`.
 *
 *   node --import tsx bench/ingest/profile-summary.ts <file.cpuprofile> [top]
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

function where(url: string): string {
  const pkg = /node_modules\/\.pnpm\/([^/]+)\//.exec(url)?.[1] ?? /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
  if (pkg !== undefined) return pkg.replace(/@\d.*$/, '').replace(/\+/g, '/');
  if (url.includes('/work/') || url.startsWith('file://')) return 'pulseboard:' + url.replace(/^.*\/(packages|services)\//, '');
  if (url.startsWith('node:') || url === '') return url === '' ? '(native/gc/idle)' : 'node-internal';
  return url;
}

const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const [id, us] of selfUs) {
  const n = byId.get(id)!;
  const pkg = where(n.callFrame.url);
  const name = `${n.callFrame.functionName || '(anonymous)'}  [${pkg}${n.callFrame.url.includes('/work/') ? `:${n.callFrame.lineNumber + 1}` : ''}]`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  const group = pkg.startsWith('pulseboard:') ? 'pulseboard' : pkg;
  byPackage.set(group, (byPackage.get(group) ?? 0) + us);
}
// Node internals and native code (socket writes, streams, GC'd buffers) charged to the nearest
// caller that is a package or our code: who causes the work, not only who does it.
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const owner = new Map<number, string>();
function ownerOf(id: number): string {
  const known = owner.get(id);
  if (known !== undefined) return known;
  const n = byId.get(id)!;
  const pkg = where(n.callFrame.url);
  let result: string;
  if (n.callFrame.functionName === '(idle)' || n.callFrame.functionName === '(garbage collector)' || n.callFrame.functionName === '(program)')
    result = n.callFrame.functionName;
  else if (pkg !== 'node-internal' && pkg !== '(native/gc/idle)') result = pkg.startsWith('pulseboard:') ? 'pulseboard' : pkg;
  else {
    const up = parent.get(id);
    result = up === undefined ? pkg : ownerOf(up);
    if (result === '(root)' || result === '') result = pkg;
  }
  owner.set(id, result);
  return result;
}
const byOwner = new Map<string, number>();
for (const [id, us] of selfUs) byOwner.set(ownerOf(id), (byOwner.get(ownerOf(id)) ?? 0) + us);

const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`);
console.log('\nself time by package:');
for (const [name, us] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us)}  ${name}`);
console.log('\ntime charged to the nearest package or our code (internals and native work included):');
for (const [name, us] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us)}  ${name}`);
console.log('\nself time by function:');
for (const [name, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us)}  ${name}`);
