const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/**
 * Whether JSON text holds more than `max` values, counted without parsing:
 * every `{`, `[` and `,` outside strings starts one more value (so the count
 * is at least the number of containers and members, give or take one), and
 * strings are skipped with `indexOf`. Text no longer than `max` characters
 * cannot hold more, so it is not even scanned (nearly every request). The scan
 * stops as soon as the count is passed; malformed text is left to the parser.
 */
export function jsonHasMoreValuesThan(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let count = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Skip to the closing quote: one not preceded by an odd run of backslashes.
      let end = text.indexOf('"', i + 1);
      while (end !== -1) {
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end === -1) return false;
      i = end;
    } else if (c === COMMA || c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++count > max) return true;
    }
  }
  return false;
}
