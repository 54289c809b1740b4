/**
 * The series selectors of a PromQL expression: each metric name with its label matchers, as
 * the dashboard's panels and the alert rules write them (functions, aggregations with by/
 * without, binary operators with on/ignoring/group_*, ranges and subqueries, offset).
 * Enough of PromQL to know what an expression selects; it throws on what it cannot read
 * rather than let a selector go unchecked.
 */
export type MatchOp = '=' | '!=' | '=~' | '!~';
export interface Matcher {
  label: string;
  op: MatchOp;
  value: string;
}
export interface Selector {
  /** The metric name (from `name{...}` or a `__name__` equality matcher); undefined when only a regex names it. */
  metric: string | undefined;
  matchers: Matcher[];
}

type Token = { kind: 'ident' | 'string' | 'number' | 'punct'; text: string };

const AGGREGATIONS = new Set([
  'sum',
  'min',
  'max',
  'avg',
  'group',
  'stddev',
  'stdvar',
  'count',
  'count_values',
  'bottomk',
  'topk',
  'quantile',
  'limitk',
  'limit_ratio',
]);
const LABEL_LISTS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);
const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'atan2', 'inf', 'nan', ...LABEL_LISTS]);

function tokenize(expr: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < expr.length) {
    const c = expr[i]!;
    if (/\s/.test(c)) i++;
    else if (c === '#') while (i < expr.length && expr[i] !== '\n') i++;
    else if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      let text = '';
      while (j < expr.length && expr[j] !== c) {
        if (expr[j] === '\\' && c !== '`') j++;
        text += expr[j];
        j++;
      }
      if (j >= expr.length) throw new Error(`unterminated string in ${expr}`);
      tokens.push({ kind: 'string', text });
      i = j + 1;
    } else if (/[a-zA-Z_:]/.test(c)) {
      const m = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(expr.slice(i))![0];
      tokens.push({ kind: 'ident', text: m });
      i += m.length;
    } else if (/[0-9.]/.test(c)) {
      const m = /^(0x[0-9a-fA-F]+|[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?[a-zA-Z]*)/.exec(expr.slice(i))?.[0];
      if (m === undefined || m === '') throw new Error(`cannot read a number at ${expr.slice(i)}`);
      tokens.push({ kind: 'number', text: m });
      i += m.length;
    } else {
      const two = expr.slice(i, i + 2);
      const op = ['!=', '=~', '!~', '==', '<=', '>='].includes(two) ? two : c;
      tokens.push({ kind: 'punct', text: op });
      i += op.length;
    }
  }
  return tokens;
}

/** Every selector of `expr`, in order. */
export function selectors(expr: string): Selector[] {
  const tokens = tokenize(expr);
  const out: Selector[] = [];
  const at = (i: number) => tokens[i];
  // From the token after an opening bracket, the index just past its closing one.
  const skipTo = (i: number, open: string, close: string) => {
    let depth = 1;
    for (let j = i; j < tokens.length; j++) {
      if (tokens[j]!.kind === 'punct' && tokens[j]!.text === open) depth++;
      if (tokens[j]!.kind === 'punct' && tokens[j]!.text === close && --depth === 0) return j + 1;
    }
    throw new Error(`no closing ${close} in ${expr}`);
  };
  const readMatchers = (i: number): { matchers: Matcher[]; next: number } => {
    const matchers: Matcher[] = [];
    let j = i;
    while (!(at(j)?.kind === 'punct' && at(j)!.text === '}')) {
      const label = at(j);
      const op = at(j + 1);
      const value = at(j + 2);
      if (label?.kind !== 'ident' || op?.kind !== 'punct' || !['=', '!=', '=~', '!~'].includes(op.text) || value?.kind !== 'string') {
        throw new Error(`cannot read the matchers of ${expr}`);
      }
      matchers.push({ label: label.text, op: op.text as MatchOp, value: value.text });
      j += 3;
      if (at(j)?.kind === 'punct' && at(j)!.text === ',') j++;
    }
    return { matchers, next: j + 1 };
  };
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i]!;
    const next = at(i + 1);
    const opens = (text: string) => next?.kind === 'punct' && next.text === text;
    if (t.kind === 'punct' && t.text === '[') i = skipTo(i + 1, '[', ']');
    else if (t.kind === 'punct' && t.text === '{') {
      const { matchers, next: after } = readMatchers(i + 1);
      const named = matchers.find((m) => m.label === '__name__' && m.op === '=');
      out.push({ metric: named?.value, matchers: matchers.filter((m) => m !== named) });
      i = after;
    } else if (t.kind === 'ident') {
      if (LABEL_LISTS.has(t.text) && opens('(')) i = skipTo(i + 2, '(', ')');
      else if (AGGREGATIONS.has(t.text) || KEYWORDS.has(t.text) || opens('(')) i++;
      else if (opens('{')) {
        const { matchers, next: after } = readMatchers(i + 2);
        out.push({ metric: t.text, matchers });
        i = after;
      } else {
        out.push({ metric: t.text, matchers: [] });
        i++;
      }
    } else i++;
  }
  return out;
}

/** Whether `value` (absent: "") satisfies a matcher; regexes are anchored, as in PromQL. */
export function satisfies(matcher: Matcher, value: string | undefined): boolean {
  const v = value ?? '';
  switch (matcher.op) {
    case '=':
      return v === matcher.value;
    case '!=':
      return v !== matcher.value;
    case '=~':
      return new RegExp(`^(?:${matcher.value})$`).test(v);
    case '!~':
      return !new RegExp(`^(?:${matcher.value})$`).test(v);
  }
}
