import { createHash } from 'node:crypto';
import type { QueryConfig } from 'pg';

const names = new Map<string, string>();

/**
 * A statement for the hot path, named so that each connection has Postgres
 * parse and analyse it once and reuse its plan: unnamed, every execution is
 * parsed, analysed and planned again, which was the largest share of the
 * backends' CPU at low rates (perf: base_yyparse, copyObject, the
 * expression walkers). The name is derived from the text, so one name never
 * stands for two texts on a connection (node-postgres refuses that).
 */
export function prepared(text: string, values: unknown[]): QueryConfig {
  let name = names.get(text);
  if (name === undefined) {
    name = `pb_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return { name, text, values };
}
