const UNIQUE_VIOLATION = '23505';

/** A Postgres unique-constraint violation (a taken email or project key). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === UNIQUE_VIOLATION;
}
