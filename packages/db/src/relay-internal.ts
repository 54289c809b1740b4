/** Helpers the relay sources share (not exported from the package). */

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

export function identifier(name: string, what: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`${what} name ${name} is not a plain identifier`);
  return name;
}

/** What a source remembers of partitions it no longer owns goes: if one comes back, it is read from its stored marks. */
export function forgetLeft(handedOut: Map<number, unknown>, owned: readonly number[]): void {
  for (const partition of handedOut.keys()) if (!owned.includes(partition)) handedOut.delete(partition);
}
