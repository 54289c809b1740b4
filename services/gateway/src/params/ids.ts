/** A numeric id in a path (`/tiles/42`, `/admin/users/7`), or undefined when it cannot be one (then: 404). */
export function parseNumericId(raw: string): number | undefined {
  return /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
}
