import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * Relative links in the repository's Markdown: every file and `#anchor` they
 * name must exist, anchors by GitHub's rules (headings slugged as github-slugger
 * does, plus explicit `id`/`name` attributes). Absolute URLs are not followed.
 */

export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  why: string;
}

const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'test-artifacts']);

export function markdownFiles(root: string, dir = root): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIPPED_DIRS.has(name)) return [];
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined) return [];
    if (stat.isDirectory()) return markdownFiles(root, path);
    return name.toLowerCase().endsWith('.md') ? [path] : [];
  });
}

/** The text outside fenced code blocks, line by line (fenced lines become empty, so numbers hold). */
function proseLines(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const open = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === undefined && open !== null) {
      fence = open[1]![0]!.repeat(open[1]!.length);
      return '';
    }
    if (fence !== undefined) {
      if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') fence = undefined;
      return '';
    }
    return line;
  });
}

/** GitHub's anchor for a heading's text: rendered text, lower case, punctuation dropped, spaces to hyphens. */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/`/g, '')
    .replace(/\*+/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown file offers: its headings' slugs (repeats get -1, -2, ...) and explicit ids. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(text)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading !== null) {
      const base = githubSlug(heading[1]!);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s[^>]*(?:name|id)="([^"]+)"/g)) anchors.add(m[1]!);
  }
  return anchors;
}

/** The link targets of a Markdown text: inline links and images, and reference definitions. */
export function linkTargets(text: string): { line: number; target: string }[] {
  const found: { line: number; target: string }[] = [];
  proseLines(text).forEach((raw, i) => {
    const line = raw.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length)); // inline code is not a link
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push({ line: i + 1, target: m[1]! });
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
    if (definition !== null) found.push({ line: i + 1, target: definition[1]! });
  });
  return found;
}

export function brokenLinks(root: string, files: readonly string[] = markdownFiles(root)): BrokenLink[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (path: string) => {
    let set = anchorCache.get(path);
    if (set === undefined) anchorCache.set(path, (set = anchorsOf(readFileSync(path, 'utf8'))));
    return set;
  };
  const broken: BrokenLink[] = [];
  for (const file of files) {
    for (const { line, target } of linkTargets(readFileSync(file, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // http:, mailto:, ...
      const hash = target.indexOf('#');
      const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
      const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const resolved = pathPart === '' ? file : pathPart.startsWith('/') ? join(root, pathPart) : resolve(dirname(file), pathPart);
      const where = { file: relative(root, file), line, target };
      if (!existsSync(resolved)) {
        broken.push({ ...where, why: 'no such file' });
        continue;
      }
      if (anchor === undefined || anchor === '' || !resolved.toLowerCase().endsWith('.md')) continue;
      if (!anchors(resolved).has(anchor.toLowerCase())) broken.push({ ...where, why: `no heading or id "${anchor}" in ${relative(root, resolved)}` });
    }
  }
  return broken;
}
