import { describe, expect, it } from 'vitest';
import { jsonHasMoreValuesThan } from './json-values.ts';

describe('jsonHasMoreValuesThan', () => {
  it('counts containers and separators outside strings only', () => {
    const array = (n: number) => `[${Array(n).fill('1').join(',')}]`;
    // `[` plus n-1 commas: n values.
    expect(jsonHasMoreValuesThan(array(2000), 2000)).toBe(false);
    expect(jsonHasMoreValuesThan(array(2001), 2000)).toBe(true);
    expect(jsonHasMoreValuesThan(`[${Array(3000).fill('{}').join(',')}]`, 5000)).toBe(true);
    // Commas, brackets and escaped quotes inside strings are text, not values.
    const text = JSON.stringify({ a: ',[{'.repeat(5000), b: 'say \\"hi\\", [x]'.repeat(500), c: '\\'.repeat(3001) });
    expect(text.length).toBeGreaterThan(2000);
    expect(jsonHasMoreValuesThan(text, 2000)).toBe(false);
    expect(jsonHasMoreValuesThan(`${text.slice(0, -1)},"d":${array(2001)}}`, 2000)).toBe(true);
  });

  it('does not scan text no longer than the limit, and leaves malformed text to the parser', () => {
    expect(jsonHasMoreValuesThan('[[[[[[[[[[', 10)).toBe(false);
    expect(jsonHasMoreValuesThan(`"unterminated ${','.repeat(100)}`, 10)).toBe(false);
  });
});
