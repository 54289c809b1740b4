// A leaf module: validation.ts names these patterns' messages, and the rule
// schema uses them; both import from here so neither imports the other.
/** `30s`, `5m`, `2h`, `1d`; the largest value each field takes is in `tile-rule-checks.ts`. */
export const DURATION_PATTERN = '^[1-9][0-9]*(s|m|h|d)$';
/** A dotted path into an event's attributes (`http.status_code`): no empty segment (an empty path is "can't be blank"). */
export const ATTRIBUTE_PATH_PATTERN = '^([^.]+(\\.[^.]+)*)?$';
