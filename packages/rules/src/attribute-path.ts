/** Reads one dotted path (`http.status_code`) from an event's attributes; undefined where it leads nowhere. */
export type AttributeReader = (attributes: Readonly<Record<string, unknown>>) => unknown;

function child(value: unknown, key: string): unknown {
  // Own properties only: a path never reaches a prototype (`constructor`, `__proto__`).
  return typeof value === 'object' && value !== null && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * Splits the path once, at compile time. Each segment is an object key, or an
 * index into an array (`tags.0`); a key holding a dot cannot be addressed.
 */
export function compileAttributePath(path: string): AttributeReader {
  const segments = path.split('.');
  if (segments.length === 1) return (attributes) => child(attributes, path);
  return (attributes) => {
    let value: unknown = attributes;
    for (const segment of segments) {
      value = child(value, segment);
      if (value === undefined) return undefined;
    }
    return value;
  };
}
